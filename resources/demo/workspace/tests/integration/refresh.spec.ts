import { beforeEach, describe, expect, it } from 'vitest';
import { testApi, type TestApi } from '../support/testApi';

describe('refresh-token rotation', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await testApi();
  });

  it('issues a token pair on login', async () => {
    const login = await api.login('ada@example.com');
    expect(login.status).toBe(200);
    expect(login.cookies.rt).toMatch(/^rt_/);
  });

  it('rotates the refresh token on every refresh', async () => {
    const login = await api.login('ada@example.com');
    const next = await api.refresh(login.cookies.rt);
    expect(next.status).toBe(200);
    expect(next.cookies.rt).not.toBe(login.cookies.rt);
  });

  it('reusing a rotated token revokes the whole family', async () => {
    const login = await api.login('ada@example.com');
    const next = await api.refresh(login.cookies.rt);
    const replay = await api.refresh(login.cookies.rt);
    expect(replay.status).toBe(401);
    const after = await api.refresh(next.cookies.rt);
    expect(after.status).toBe(401);
  });

  it('refuses an expired refresh token', async () => {
    const login = await api.login('ada@example.com');
    api.clock.advance(31 * 24 * 60 * 60 * 1000);
    const res = await api.refresh(login.cookies.rt);
    expect(res.status).toBe(401);
  });
});
