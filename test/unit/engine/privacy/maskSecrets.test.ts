import { describe, expect, it } from 'vitest';
import { containsSecret, maskDeep, maskSecrets } from '../../../../engine/privacy/maskSecrets';

// Fixtures are assembled at run time so no complete fake key sits in the source for scanners to flag.
const j = (...parts: string[]): string => parts.join('');
const alnum = (n: number, seed = 7): string => {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    s += chars[x % chars.length];
  }
  return s;
};
const M = (kind: string): string => `[secret masked: ${kind}]`;

const OPENAI = j('sk-', 'proj-', alnum(40), '_', alnum(8));
const OPENAI_LEGACY = j('sk-', alnum(48));
const ANTHROPIC = j('sk-', 'ant-', 'api03-', alnum(80), '-', alnum(6), 'AA');
const GITHUB = j('gh', 'p_', alnum(36));
const GITHUB_S = j('gh', 's_', alnum(36, 3));
const GITHUB_PAT = j('github', '_pat_', '11', alnum(20), '_', alnum(59));
const GITLAB = j('gl', 'pat-', alnum(20));
const AWS_ID = j('AK', 'IA', 'IOSFODNN7', 'EXAMPLE');
const AWS_SECRET = j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYEXAMPLEKEY');
const GOOGLE = j('AI', 'za', 'Sy', alnum(33));
const SLACK = j('xo', 'xb-', '1234567890-', '0987654321-', alnum(24));
const STRIPE = j('sk', '_live_', alnum(24));
const STRIPE_TEST = j('rk', '_test_', alnum(24));
const NPM = j('np', 'm_', alnum(36));
const HF = j('h', 'f_', alnum(34));
const JWT = j('eyJ', 'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'eyJ', 'zdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ', '.', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c');
const PEM = j('-----BEGIN RSA ', 'PRIVATE KEY-----\n', 'MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2Bi\n', alnum(64), '\n', alnum(20), '==\n', '-----END RSA ', 'PRIVATE KEY-----');

describe('[mask-secrets] known token formats', () => {
  const cases: [string, string, string][] = [
    ['openai-key', `export OPENAI_API_KEY=${OPENAI}`, `export OPENAI_API_KEY=${M('openai-key')}`],
    ['openai-key', `key ${OPENAI_LEGACY}.`, `key ${M('openai-key')}.`],
    ['anthropic-key', `ANTHROPIC_API_KEY="${ANTHROPIC}"`, `ANTHROPIC_API_KEY="${M('anthropic-key')}"`],
    ['github-token', `push with ${GITHUB} then`, `push with ${M('github-token')} then`],
    ['github-token', `GH_TOKEN=${GITHUB_S}`, `GH_TOKEN=${M('github-token')}`],
    ['github-token', `pat: ${GITHUB_PAT}`, `pat: ${M('github-token')}`],
    ['gitlab-token', `token ${GITLAB}`, `token ${M('gitlab-token')}`],
    ['aws-access-key', `aws_access_key_id = ${AWS_ID}`, `aws_access_key_id = ${M('aws-access-key')}`],
    ['aws-secret', `aws_secret_access_key = ${AWS_SECRET}`, `aws_secret_access_key = ${M('aws-secret')}`],
    ['aws-secret', `{"SecretAccessKey": "${AWS_SECRET}"}`, `{"SecretAccessKey": "${M('aws-secret')}"}`],
    ['google-api-key', `?key=${GOOGLE}&q=1`, `?key=${M('google-api-key')}&q=1`],
    ['slack-token', `SLACK_BOT=${SLACK}`, `SLACK_BOT=${M('slack-token')}`],
    ['stripe-key', `Stripe(${STRIPE})`, `Stripe(${M('stripe-key')})`],
    ['stripe-key', `const k = '${STRIPE_TEST}'`, `const k = '${M('stripe-key')}'`],
    ['jwt', `cookie: session=${JWT}; Path=/`, `cookie: session=${M('jwt')}; Path=/`],
    ['npm-token', `//registry.npmjs.org/:_authToken=${NPM}`, `//registry.npmjs.org/:_authToken=${M('npm-token')}`],
    ['huggingface-token', `HF_TOKEN=${HF}`, `HF_TOKEN=${M('huggingface-token')}`],
  ];
  it.each(cases)('[mask-secrets] masks %s', (_kind, input, expected) => {
    expect(maskSecrets(input)).toBe(expected);
    expect(containsSecret(input)).toBe(true);
  });

  it('[mask-secrets] masks several secrets of one text, each with its own marker', () => {
    const text = `a=${GITHUB}\nb: ${OPENAI}\nc ${JWT}`;
    expect(maskSecrets(text)).toBe(`a=${M('github-token')}\nb: ${M('openai-key')}\nc ${M('jwt')}`);
  });

  it('[mask-secrets] masks inside JSON-escaped session lines', () => {
    const line = JSON.stringify({ type: 'tool_result', content: `$ cat .env\nOPENAI_API_KEY=${OPENAI}\nDB_PASSWORD=hunter2xyz\nDEBUG=true` });
    const masked = maskSecrets(line);
    expect(masked).toContain(`OPENAI_API_KEY=${M('openai-key')}\\nDB_PASSWORD=${M('assignment')}\\nDEBUG=true`);
    expect(JSON.parse(masked)).toMatchObject({ type: 'tool_result' });
  });
});

describe('[mask-secrets] private keys, bearer tokens and URL credentials', () => {
  it('[mask-secrets] masks a PEM private key block from BEGIN to END', () => {
    expect(maskSecrets(`before\n${PEM}\nafter`)).toBe(`before\n${M('private-key')}\nafter`);
    const escaped = JSON.stringify({ text: PEM });
    expect(maskSecrets(escaped)).toBe(`{"text":"${M('private-key')}"}`);
  });

  it('[mask-secrets] masks the BEGIN line and base64 lines of a cut-off private key', () => {
    const cut = j('-----BEGIN OPENSSH ', 'PRIVATE KEY-----\n', alnum(70), '\n', alnum(70, 9), '\nThe key above was cut off');
    expect(maskSecrets(cut)).toBe(`${M('private-key')}\nThe key above was cut off`);
  });

  it('[mask-secrets] leaves public keys and certificates alone', () => {
    const pub = j('-----BEGIN PUBLIC KEY-----\n', alnum(64), '\n-----END PUBLIC KEY-----');
    expect(maskSecrets(pub)).toBe(pub);
  });

  it('[mask-secrets] masks the token of a Bearer authorization (16 characters or more)', () => {
    const token = alnum(32);
    expect(maskSecrets(`curl -H "Authorization: Bearer ${token}" https://api.example.com`)).toBe(
      `curl -H "Authorization: Bearer ${M('bearer-token')}" https://api.example.com`,
    );
    expect(maskSecrets(`headers: { Authorization: \`Bearer \${token}\` }`)).toBe(`headers: { Authorization: \`Bearer \${token}\` }`);
    expect(maskSecrets('Bearer tokens are short-lived')).toBe('Bearer tokens are short-lived');
    expect(maskSecrets(`Authorization: Bearer ${JWT}`)).toBe(`Authorization: Bearer ${M('jwt')}`);
  });

  it('[mask-secrets] masks Basic authorization credentials', () => {
    expect(maskSecrets('Authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe(`Authorization: Basic ${M('basic-auth')}`);
    expect(maskSecrets('Basic configuration is described below')).toBe('Basic configuration is described below');
  });

  it('[mask-secrets] masks only user:password of a URL', () => {
    expect(maskSecrets('DATABASE_URL=postgres://admin:hunter2@db.example.com:5432/app')).toBe(
      `DATABASE_URL=postgres://${M('url-credentials')}@db.example.com:5432/app`,
    );
    expect(maskSecrets('git clone https://x-access-token:s3cr3tpassw0rd@github.com/org/repo.git')).toBe(
      `git clone https://${M('url-credentials')}@github.com/org/repo.git`,
    );
    expect(maskSecrets('redis://:s3cr3t@localhost:6379/0')).toBe(`redis://${M('url-credentials')}@localhost:6379/0`);
    const plain = 'http://localhost:3000/api?x=1 ssh://git@github.com/org/repo.git https://example.com:443/a@b';
    expect(maskSecrets(plain)).toBe(plain);
  });
});

describe('[mask-secrets] key/value assignments', () => {
  const masked: [string, string][] = [
    ['password=hunter2!x', 'password='],
    ['DB_PASSWORD=hunter2hunter2', 'DB_PASSWORD='],
    ['SECRET_TOKEN=abc123def456', 'SECRET_TOKEN='],
    ['export CLIENT_SECRET=0a1b2c3d4e5f', 'export CLIENT_SECRET='],
    ['api_key: "abcd1234efgh"', 'api_key: "'],
    ['"apiKey": "AbCdEfGh12345678"', '"apiKey": "'],
    ["{'password': 'correct horse battery staple'}", "{'password': '"],
    ['const password = "Zq8!rT2w"', 'const password = "'],
    ['--password=s3cret!pw', '--password='],
    ['X-Api-Key: abc123def456', 'X-Api-Key: '],
    ['https://api.example.com/v1?access_token=abc123def456ghi&x=1', 'https://api.example.com/v1?access_token='],
    ['os.environ["API_KEY"] = "abc123xyz789"', 'os.environ["API_KEY"] = "'],
    ['this.authToken = "abc.def.123456"', 'this.authToken = "'],
    ['access_key := "AB12CD34EF56"', 'access_key := "'],
    ["'secret' => 'p4ssw0rd!'", "'secret' => '"],
    ['auth: abcd-1234-efgh', 'auth: '],
    ['password: 12345678', 'password: '],
  ];
  it.each(masked)('[mask-secrets] masks the value of %j, keeping key and separator', (input, kept) => {
    const out = maskSecrets(input);
    expect(out.startsWith(kept + M('assignment'))).toBe(true);
    expect(containsSecret(input)).toBe(true);
  });

  it('[mask-secrets] keeps what follows the masked value', () => {
    expect(maskSecrets('Server=db;User=sa;Password=abc123!x;Encrypt=true')).toBe(`Server=db;User=sa;Password=${M('assignment')};Encrypt=true`);
    expect(maskSecrets('{"password":"hunter2hunter","user":"bob"}')).toBe(`{"password":"${M('assignment')}","user":"bob"}`);
  });

  const kept = [
    'password: string',
    'password?: string;',
    'apiKey: string | undefined',
    'const tokenCount = 123',
    'tokenCount = 12345678',
    'max_tokens: 100000000',
    'token_url: "https://oauth2.googleapis.com/token"',
    'token = process.env.GITHUB_TOKEN',
    'apiKey: config.openaiApiKey,',
    'const secret = process.env.SECRET!;',
    'password = os.getenv("DB_PASSWORD")',
    'token = await getAccessToken(user)',
    'password: hashedPassword,',
    'secret: DEFAULT_SECRET_NAME',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'token: "${{ secrets.GITHUB_TOKEN }}"',
    'API_KEY="${OPENAI_API_KEY}"',
    'password: "********"',
    'api_key: "<your-api-key>"',
    'if (password === "hunter2abc") {}',
    'author: "Jane Doe Smith"',
    'auth: { type: "oauth" }',
    'token: z.string().min(8)',
    'Password: Optional[str] = None',
  ];
  it.each(kept)('[mask-secrets] leaves %j alone (not a literal secret)', (input) => {
    expect(maskSecrets(input)).toBe(input);
    expect(containsSecret(input)).toBe(false);
  });
});

describe('[mask-secrets] text without secrets', () => {
  it('[mask-secrets] returns realistic code and log text unchanged (the same string)', () => {
    const text = [
      'commit 3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291',
      'Author: Jane Doe <jane@example.com>',
      'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'sha512-9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca72323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043',
      'request 123e4567-e89b-12d3-a456-426614174000 took 35ms',
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'aGVsbG8gd29ybGQgdGhpcyBpcyBhIHRlc3Q=',
      'const tokenCount = 123;',
      'interface Login { user: string; password: string }',
      'function login(password: string): Promise<Token> {',
      'max_tokens = 4096; input_tokens: 1523, cache_read_input_tokens: 20480',
      "import { apiKeyFrom } from './config/secrets';",
      '/home/dev/.ssh/id_ed25519 ~/.aws/credentials C:\\Users\\dev\\AppData\\Roaming',
      'toolu_01A09q90qw90lq917835lq9 msg_01XFDUDYJgAACzvnptvVoYEL req_011CSHoEeqs5C35K2UUqR7Fy',
      '"type":"token_count","info":{"total_token_usage":{"input_tokens":19046}}',
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 is a JWT header on its own',
      'risk-assessment-for-the-production-cluster desk-booking-service-v2',
      'The task-management skill: see https://example.com/docs#tokens',
      'http://localhost:5173/?token=&page=2',
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
    ].join('\n');
    expect(maskSecrets(text)).toBe(text);
    expect(containsSecret(text)).toBe(false);
    expect(maskSecrets('')).toBe('');
  });
});

describe('[mask-secrets] idempotence and linear time', () => {
  const samples = [
    `export OPENAI_API_KEY=${OPENAI} ANTHROPIC=${ANTHROPIC}`,
    `token = foo.${JWT}`,
    `password=abc.${JWT}`,
    `secret: ${AWS_ID}`,
    `api_key: "<${OPENAI}>"`,
    `API_KEY="\${${GITHUB}}"`,
    `git clone https://oauth2:${GITLAB}@gitlab.com/a/b.git`,
    `Authorization: Bearer ${alnum(40)}`,
    PEM,
    'password=password=password=1',
  ];
  it.each(samples)('[mask-secrets] masking %j twice gives the same text', (s) => {
    const once = maskSecrets(s);
    expect(once).not.toBe(s);
    expect(maskSecrets(once)).toBe(once);
    expect(containsSecret(once)).toBe(false);
  });

  it('[mask-secrets] is idempotent on random mixes of secrets, code and separators', () => {
    const fragments = [
      OPENAI, ANTHROPIC, GITHUB, GITHUB_PAT, AWS_ID, AWS_SECRET, GOOGLE, SLACK, STRIPE, NPM, HF, JWT, PEM,
      'password', 'api_key', 'SECRET_TOKEN', 'token', 'auth', 'Bearer ', 'Basic ', 'Authorization: ', 'https://', 'user:', '@host',
      '=', ': ', '"', "'", '\\"', '.', '-', '_', ' ', '\n', '\\n', '$', '{', '}', '(', '[', ']', ',', ';', '&',
      'abc123', 'process.env.X', 'string', '********', '<key>', 'eyJ', 'sk-', 'ghp_', '-----BEGIN PRIVATE KEY-----', '-----END PRIVATE KEY-----',
      '[secret masked: jwt]', 'xyz', '12345678', 'a!b@c#d$',
    ];
    // mulberry32, so a failure reproduces.
    let state = 12345;
    const next = (n: number): number => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    for (let round = 0; round < 5000; round++) {
      let s = '';
      const parts = 1 + next(12);
      for (let i = 0; i < parts; i++) s += fragments[next(fragments.length)];
      const once = maskSecrets(s);
      expect(maskSecrets(once), JSON.stringify(s)).toBe(once);
    }
  });

  it('[mask-secrets] masks 2 MB adversarial strings (no catastrophic backtracking)', () => {
    const n = 2_000_000;
    expect(maskSecrets(`sk-${'a1'.repeat(n / 2)}`)).toBe(M('openai-key'));
    expect(maskSecrets(`sk-${'a1'.repeat(n / 2)}!`)).toBe(`${M('openai-key')}!`);
    // Letters alone are not key material (`sk-spinner-…` is a CSS class): read once, left alone.
    expect(maskSecrets(`sk-${'a'.repeat(n)}`)).toBe(`sk-${'a'.repeat(n)}`);
    const eyj = 'eyJ'.repeat(n / 3);
    expect(maskSecrets(eyj)).toBe(eyj);
    const eyjDots = 'eyJaaaaaaaaa.'.repeat(n / 13);
    expect(maskSecrets(eyjDots).startsWith(M('jwt'))).toBe(true);
    for (const run of ['='.repeat(n), ':'.repeat(n), '-'.repeat(n), ' '.repeat(n), 'a:'.repeat(n / 2), 'a='.repeat(n / 2), '\\"'.repeat(n / 2), 'x.'.repeat(n / 2), 'a-'.repeat(n / 2)]) {
      expect(maskSecrets(run)).toBe(run);
    }
    for (const run of [`password=${'='.repeat(n)}`, `password:${':'.repeat(n)}`, `password: ${' '.repeat(n)}x`]) {
      expect(maskSecrets(run)).toBe(run);
    }
    expect(maskSecrets(`password=${'a='.repeat(n / 2)}`)).toBe(`password=${M('assignment')}`);
    expect(maskSecrets('password='.repeat(n / 9))).toBe(`password=${M('assignment')}`);
    const openQuotes = 'auth="x auth=\'y '.repeat(n / 16);
    expect(typeof maskSecrets(openQuotes)).toBe('string');
    const begins = '-----BEGIN PRIVATE KEY-----'.repeat(n / 27);
    expect(maskSecrets(begins)).toBe(M('private-key').repeat(n / 27));
    const schemes = 'https://a:'.repeat(n / 10);
    expect(maskSecrets(schemes)).toBe(schemes);
    const bearers = 'Bearer '.repeat(n / 7);
    expect(maskSecrets(bearers)).toBe(bearers);
    const keys = `${'k'.repeat(n)}=abc123456`;
    expect(maskSecrets(keys)).toBe(keys);
    expect(maskSecrets(`ghp_${'A'.repeat(n)}`)).toBe(M('github-token'));
    expect(maskSecrets(`AKIA${'A'.repeat(n)}`)).toBe(`AKIA${'A'.repeat(n)}`);
    // The rules added for issue 20: 40-character base64 runs near "secret", base64 PEM headers,
    // invisible characters everywhere.
    const runs = `secret ${'aB1/'.repeat(10)} `.repeat(n / 48);
    expect(maskSecrets(runs)).toBe(`secret ${M('aws-secret')} `.repeat(n / 48));
    const b64Pem = `LS0tLS1CRUdJTi${'Q'.repeat(n)}`;
    expect(maskSecrets(b64Pem)).toBe(b64Pem);
    const zw = '\u200b'.repeat(n);
    expect(maskSecrets(zw)).toBe(zw);
    const splitKeys = `${'gh\u200bp_'.repeat(n / 6)}`;
    expect(maskSecrets(splitKeys)).toBe(splitKeys);
  }, 60_000);
});

describe('[mask-secrets] containsSecret and maskDeep', () => {
  it('[mask-secrets] containsSecret tells whether masking would change the text', () => {
    expect(containsSecret(`x ${GITHUB}`)).toBe(true);
    expect(containsSecret('nothing to see: 3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291')).toBe(false);
    expect(containsSecret('')).toBe(false);
  });

  it('[mask-secrets] maskDeep masks every string of a JSON value, keeps keys and other leaves, and does not mutate it', () => {
    const input = {
      type: 'assistant',
      [`key ${GITHUB}`]: 'key names stay',
      message: {
        content: [
          { type: 'text', text: `use ${OPENAI}` },
          { type: 'tool_use', input: { command: `curl -H "Authorization: Bearer ${alnum(24)}"`, timeout: 30, dry: false, extra: null } },
        ],
        usage: { input_tokens: 12, output_tokens: 3 },
      },
      tags: ['plain', `password=hunter2!x`],
    };
    const before = JSON.stringify(input);
    const out = maskDeep(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(out).not.toBe(input);
    expect(out.message).not.toBe(input.message);
    expect(out.message.content[0]).toEqual({ type: 'text', text: `use ${M('openai-key')}` });
    expect(out.message.content[1]?.input).toEqual({
      command: `curl -H "Authorization: Bearer ${M('bearer-token')}"`,
      timeout: 30,
      dry: false,
      extra: null,
    });
    expect(out.message.usage).toEqual({ input_tokens: 12, output_tokens: 3 });
    expect(out.tags).toEqual(['plain', `password=${M('assignment')}`]);
    expect(Object.keys(out)).toEqual(Object.keys(input));
    expect(out[`key ${GITHUB}`]).toBe('key names stay');
  });

  it('[mask-secrets] maskDeep handles scalars and keeps a parsed "__proto__" key an own property', () => {
    expect(maskDeep(`t ${NPM}`)).toBe(`t ${M('npm-token')}`);
    expect(maskDeep(42)).toBe(42);
    expect(maskDeep(null)).toBe(null);
    expect(maskDeep(true)).toBe(true);
    const parsed = JSON.parse(`{"__proto__": {"token": "${HF}"}}`) as Record<string, unknown>;
    const out = maskDeep(parsed);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe(`{"__proto__":{"token":"${M('huggingface-token')}"}}`);
  });
});
