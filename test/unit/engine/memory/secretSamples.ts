/**
 * Realistic but fake credentials for the intake tests. Key material is generated from a fixed
 * seed, not written out, so the tests read like real leaks without a literal token in the tree.
 */

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const UPPER_ALNUM = UPPER + DIGITS;
export const BASE64URL = ALNUM + '-_';
export const HEX = '0123456789abcdef';

/** `n` characters of `alphabet` from a fixed-seed generator; at least one digit and one letter. */
export function keyChars(n: number, alphabet: string = ALNUM, seed = n * 7919 + alphabet.length): string {
  let state = seed >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  // Real key material mixes letters and digits; pin one of each where the alphabet has them.
  if (n >= 4 && /[0-9]/.test(alphabet) && /[A-Za-z]/.test(alphabet)) {
    const letter = alphabet.match(/[A-Za-z]/)![0];
    out = `${out.slice(0, n - 2)}7${letter}`;
  }
  return out;
}

/** One secret of each kind the intake refuses, as it would appear in a command or a note. */
export const SECRETS: Record<string, string> = {
  aws: `AKIA${keyChars(16, UPPER_ALNUM)}`,
  awsSession: `ASIA${keyChars(16, UPPER_ALNUM, 3)}`,
  openai: `sk-${keyChars(48)}`,
  openaiProject: `sk-proj-${keyChars(120, BASE64URL)}`,
  anthropic: `sk-ant-api03-${keyChars(93, BASE64URL)}AA`,
  github: `ghp_${keyChars(36)}`,
  githubFineGrained: `github_pat_${keyChars(22)}_${keyChars(59, ALNUM, 5)}`,
  gitlab: `glpat-${keyChars(20, BASE64URL)}`,
  npm: `npm_${keyChars(36, ALNUM, 11)}`,
  slack: `xoxb-123456789012-1234567890123-${keyChars(24)}`,
  google: `AIza${keyChars(35, BASE64URL)}`,
  stripe: `sk_live_${keyChars(24)}`,
  jwt: `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9.${keyChars(43, BASE64URL)}`,
  bearer: `Authorization: Bearer ${keyChars(40)}`,
  privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----`,
  urlCredentials: 'postgres://app:S3cr3tPassw0rd@db.internal:5432/app',
  assignment: 'DB_PASSWORD=hunter2hunter2',
};
