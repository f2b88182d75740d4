import type { ErrorCode, ErrorDto, ErrorIssue } from '../../engine/contract';

/** A failed call as the views see it: the host's typed error, whichever transport carried it. */
export class ApiError extends Error implements ErrorDto {
  readonly code: ErrorCode;
  readonly issues: ErrorIssue[] | undefined;

  constructor(dto: ErrorDto) {
    super(dto.message);
    this.name = 'ApiError';
    this.code = dto.code;
    this.issues = dto.issues;
  }
}
