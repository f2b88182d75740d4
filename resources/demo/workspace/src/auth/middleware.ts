import type { NextFunction, Request, Response } from 'express';
import { logger } from '../lib/logger';
import { AuthError } from './errors';
import { verifyAccessToken } from './tokens';

/** Every /api route: a valid access token, or 401. */
export function requireSession(req: Request, res: Response, next: NextFunction): void {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  try {
    const claims = verifyAccessToken(token);
    res.locals.userId = claims.sub;
    res.locals.sessionId = claims.sid;
    next();
  } catch (err) {
    logger.warn('rejected access token', { token, reason: (err as Error).message });
    res.status(401).json({ error: 'invalid_token' });
  }
}

/** A refused refresh answers 401 and drops the refresh cookie. */
export function refreshErrorHandler(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (err instanceof AuthError && err.code === 'invalid_grant') {
    logger.info('refresh refused', { reason: err.message });
    res.clearCookie('rt', { path: '/auth/refresh' });
    res.status(401).json({ error: 'invalid_grant' });
    return;
  }
  next(err);
}
