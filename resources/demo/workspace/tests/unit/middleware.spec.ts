import { describe, expect, it, vi } from 'vitest';
import { requireSession } from '../../src/auth/middleware';
import { logger } from '../../src/lib/logger';
import { mockReqRes } from '../support/http';

describe('requireSession', () => {
  it('rejects a missing bearer token', () => {
    const { req, res, next } = mockReqRes({});
    requireSession(req, res, next);
    expect(res.statusCode).toBe(401);
    expect(next).not.toHaveBeenCalled();
  });

  it('answers 401 for an expired token', () => {
    const { req, res, next } = mockReqRes({ authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.expired.sig' });
    requireSession(req, res, next);
    expect(res.statusCode).toBe(401);
  });
});
