import { createApp } from '../../src/app';
import { manualClock, type ManualClock } from './clock';
import { memoryDb } from './memoryDb';

export interface ApiResponse {
  status: number;
  /** The cookie jar after the response, like a browser's. */
  cookies: { rt: string };
  body: Record<string, unknown>;
}

export interface TestApi {
  clock: ManualClock;
  login(email: string): Promise<ApiResponse>;
  refresh(token: string): Promise<ApiResponse>;
  /** A session and token written the way releases before ADR-0007 wrote them (no family). */
  legacySession(email: string): Promise<{ refreshToken: string }>;
  /** Live (not rotated, not revoked) tokens of the family of a token. */
  liveTokens(anyTokenOfFamily: string): Promise<number>;
  familyOf(token: string): Promise<string | null>;
}

export async function testApi(): Promise<TestApi> {
  const clock = manualClock(Date.parse('2026-11-02T09:00:00Z'));
  const db = await memoryDb();
  const app = createApp({ db, now: clock.now });
  return app.testClient(clock);
}
