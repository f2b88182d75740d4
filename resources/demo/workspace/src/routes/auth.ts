import { Router } from 'express';
import type { Db } from '../db';
import { refreshErrorHandler } from '../auth/middleware';
import { refresh, type RefreshDeps } from '../auth/refresh';
import { createSession } from '../auth/session';
import { findUserByEmail } from '../users';

const COOKIE = { httpOnly: true, secure: true, sameSite: 'strict', path: '/auth/refresh' } as const;

export function authRoutes(db: Db, deps: RefreshDeps): Router {
  const r = Router();

  r.post('/auth/login', async (req, res, next) => {
    try {
      const user = await findUserByEmail(db, String(req.body.email));
      const { tokens } = await createSession(db, deps, user.id);
      res.cookie('rt', tokens.refreshToken, COOKIE);
      res.json({ accessToken: tokens.accessToken, expiresAt: tokens.expiresAt });
    } catch (err) {
      next(err);
    }
  });

  r.post('/auth/refresh', async (req, res, next) => {
    try {
      const pair = await refresh(deps, String(req.cookies.rt ?? ''));
      res.json({ accessToken: pair.accessToken, expiresAt: pair.expiresAt });
    } catch (err) {
      next(err);
    }
  });

  r.use(refreshErrorHandler);
  return r;
}
