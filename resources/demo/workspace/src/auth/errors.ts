export type AuthErrorCode = 'invalid_grant' | 'invalid_token' | 'forbidden';

/** An authentication failure the routes answer with 401 (never with the token that caused it). */
export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
