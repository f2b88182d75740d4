import { describe, expect, it } from 'vitest';
import { detectUnsafe } from '../../../../engine/memory/detectUnsafe';
import { ALNUM, BASE64URL, HEX, SECRETS, UPPER_ALNUM, keyChars } from './secretSamples';

/** [what, text, the secret inside it (never in the reason), expected reason fragment] */
const UNSAFE: [string, string, string, string][] = [
  ['BEL at the end of a command', 'echo done\u0007', '\u0007', 'control character U+0007'],
  ['NUL inside a word', 'a\u0000b', '\u0000', 'control character U+0000'],
  ['an ANSI colour escape', '\u001b[31mFAIL\u001b[0m src/a.test.ts', '\u001b', 'control character U+001B'],
  ['a vertical tab', 'line\u000bfeed', '\u000b', 'control character U+000B'],
  ['a form feed', 'page\u000cbreak', '\u000c', 'control character U+000C'],
  ['DEL', 'rm -rf build\u007f', '\u007f', 'control character U+007F'],
  ['a C1 next-line', 'next\u0085line', '\u0085', 'control character U+0085'],
  ['a Trojan Source override', 'if (isAdmin\u202e \u2066// check later\u2069 \u2066) {', '\u202e', 'bidirectional control character U+202E'],
  ['a right-to-left isolate', 'file\u2067name.ts', '\u2067', 'bidirectional control character U+2067'],
  ['a left-to-right embedding', '\u202aembedded', '\u202a', 'bidirectional control character U+202A'],
  ['a pop directional isolate', 'end\u2069', '\u2069', 'bidirectional control character U+2069'],
  ['an unpaired high surrogate', 'broken \ud83d text', '\ud83d', 'unpaired surrogate U+D83D'],
  ['an unpaired low surrogate', 'broken \ude00 text', '\ude00', 'unpaired surrogate U+DE00'],
  ['an RSA key block', `-----BEGIN RSA PRIVATE KEY-----\nMIIEow${keyChars(60)}`, 'BEGIN RSA PRIVATE KEY', 'private key block'],
  ['a PKCS#8 key block', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg', 'BEGIN PRIVATE KEY', 'private key block'],
  ['an EC key block', 'key.pem:\n-----BEGIN EC PRIVATE KEY-----', 'BEGIN EC PRIVATE KEY', 'private key block'],
  ['an OpenSSH key block', SECRETS.privateKey!, 'OPENSSH PRIVATE KEY', 'private key block'],
  ['a DSA key block', '-----BEGIN DSA PRIVATE KEY-----', 'DSA PRIVATE KEY', 'private key block'],
  ['a PGP key block', '-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2', 'PGP PRIVATE KEY BLOCK', 'private key block'],
  ['an encrypted PKCS#8 block', '-----BEGIN ENCRYPTED PRIVATE KEY-----', 'ENCRYPTED PRIVATE KEY', 'private key block'],
  ['an AWS key id in a config', `aws_access_key_id = ${SECRETS.aws}`, SECRETS.aws!, 'AWS access key id'],
  ['an AWS session key id in an export', `export AWS_ACCESS_KEY_ID=${SECRETS.awsSession}`, SECRETS.awsSession!, 'AWS access key id'],
  ['an AWS key id in JSON', `{"AccessKeyId": "AKIA${keyChars(16, UPPER_ALNUM, 9)}"}`, `AKIA${keyChars(16, UPPER_ALNUM, 9)}`, 'AWS access key id'],
  ['an OpenAI key in .env', `OPENAI_API_KEY=${SECRETS.openai}`, SECRETS.openai!, 'OpenAI API key'],
  ['an OpenAI project key', `key ${SECRETS.openaiProject} works`, SECRETS.openaiProject!, 'OpenAI API key'],
  ['an OpenAI key in code', `client = OpenAI(api_key="${SECRETS.openai}")`, SECRETS.openai!, 'OpenAI API key'],
  ['an Anthropic key', `ANTHROPIC_API_KEY=${SECRETS.anthropic}`, SECRETS.anthropic!, 'Anthropic API key'],
  ['an Anthropic key in a header', `curl -H 'x-api-key: ${SECRETS.anthropic}'`, SECRETS.anthropic!, 'Anthropic API key'],
  ['a GitHub token in a clone URL', `git clone https://${SECRETS.github}@github.com/org/repo.git`, SECRETS.github!, 'GitHub token'],
  ['a GitHub OAuth token', `GH_TOKEN=gho_${keyChars(36, ALNUM, 2)}`, `gho_${keyChars(36, ALNUM, 2)}`, 'GitHub token'],
  ['a GitHub app token', `token ghs_${keyChars(36, ALNUM, 4)}`, `ghs_${keyChars(36, ALNUM, 4)}`, 'GitHub token'],
  ['a GitHub refresh token', `ghr_${keyChars(36, ALNUM, 6)}`, `ghr_${keyChars(36, ALNUM, 6)}`, 'GitHub token'],
  ['a GitHub user token', `(ghu_${keyChars(36, ALNUM, 8)})`, `ghu_${keyChars(36, ALNUM, 8)}`, 'GitHub token'],
  ['a fine-grained GitHub token', `export GITHUB_TOKEN=${SECRETS.githubFineGrained}`, SECRETS.githubFineGrained!, 'GitHub token'],
  ['a GitLab token', `PRIVATE-TOKEN: ${SECRETS.gitlab}`, SECRETS.gitlab!, 'GitLab token'],
  ['an npm token in .npmrc', `//registry.npmjs.org/:_authToken=${SECRETS.npm}`, SECRETS.npm!, 'npm token'],
  ['a Slack bot token', `SLACK_BOT_TOKEN=${SECRETS.slack}`, SECRETS.slack!, 'Slack token'],
  ['a Slack user token', `xoxp-2222222222-3333333333-${keyChars(32, HEX)}`, keyChars(32, HEX), 'Slack token'],
  ['a Google API key in a URL', `https://maps.googleapis.com/maps/api/js?key=${SECRETS.google}`, SECRETS.google!, 'Google API key'],
  ['a Stripe live key', `stripe.api_key = "${SECRETS.stripe}"`, SECRETS.stripe!, 'Stripe secret key'],
  ['a Stripe restricted key', `rk_live_${keyChars(30, ALNUM, 12)}`, `rk_live_${keyChars(30, ALNUM, 12)}`, 'Stripe secret key'],
  ['a Stripe test key', `sk_test_${keyChars(24, ALNUM, 13)}`, `sk_test_${keyChars(24, ALNUM, 13)}`, 'Stripe secret key'],
  ['a JWT in a cookie', `Cookie: session=${SECRETS.jwt}`, SECRETS.jwt!, 'JSON Web Token'],
  ['a bearer token in curl', `curl -H "${SECRETS.bearer}" https://api.example.com/v1/me`, SECRETS.bearer!.slice(22), 'bearer token'],
  ['a lower-case bearer header', `authorization: bearer ${keyChars(24, HEX)}.${keyChars(12, HEX, 1)}`, keyChars(24, HEX), 'bearer token'],
  ['a token-scheme header', `Authorization: token ${keyChars(40, HEX, 3)}`, keyChars(40, HEX, 3), 'bearer token'],
  ['basic credentials', 'Authorization: Basic dXNlcjpodW50ZXIyaHVudGVyMg==', 'dXNlcjpodW50ZXIyaHVudGVyMg==', 'basic credentials'],
  ['a database URL with a password', `DATABASE_URL=${SECRETS.urlCredentials}`, 'S3cr3tPassw0rd', 'credentials in a URL'],
  ['a registry URL with a password', 'https://deploy:hunter2hunter2@registry.example.com/v2/', 'hunter2hunter2', 'credentials in a URL'],
  ['a Redis URL with only a password', 'REDIS_URL=redis://:s3cretRedisPass@cache:6379/0', 's3cretRedisPass', 'credentials in a URL'],
  ['a password in .env', SECRETS.assignment!, 'hunter2hunter2', 'secret field (password)'],
  ['a quoted password in YAML', 'password: "Tr0ub4dor&3x"', 'Tr0ub4dor&3x', 'secret field (password)'],
  ['a client secret in JSON', '{"client_secret": "8f3kD92mslQpX0aa"}', '8f3kD92mslQpX0aa', 'secret field (secret)'],
  ['a Django secret key', "SECRET_KEY = 'django-insecure-4x!b7m#z0q$9d2v'", 'django-insecure-4x!b7m#z0q$9d2v', 'secret field (secret_key)'],
  ['an api_key query parameter', 'GET https://api.example.com/v1/items?api_key=9a8b7c6d5e4f3a2b1c0d&page=2', '9a8b7c6d5e4f3a2b1c0d', 'secret field (api_key)'],
  ['an auth token in YAML', 'auth_token: a81bc7e0d4f24e1f9a6b', 'a81bc7e0d4f24e1f9a6b', 'secret field (auth_token)'],
  ['an OAuth access token', `access_token = "ya29.${keyChars(40, BASE64URL)}"`, keyChars(40, BASE64URL), 'Google OAuth token'],
  ['a passphrase of words', 'passwd=correcthorsebatterystaple', 'correcthorsebatterystaple', 'secret field (passwd)'],
  ['a password flag', 'mysql --password=Sup3rS3cret! -u root app', 'Sup3rS3cret!', 'secret field (password)'],
  ['an apikey in YAML', 'apikey: f0e1d2c3b4a59687', 'f0e1d2c3b4a59687', 'secret field (apikey)'],
  ['a private key string', 'private_key = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'secret field (private_key)'],
  ['a Go assignment', 'apiKey := "k8Jd93LmQz02Xv"', 'k8Jd93LmQz02Xv', 'secret field (api_key)'],
  ['a PHP array entry', "'password' => 'p4ssw0rd-prod-01'", 'p4ssw0rd-prod-01', 'secret field (password)'],
];

/** [what, text]: ordinary code, commands and prose the intake must let through. */
const SAFE: [string, string][] = [
  ['a function named sk_check', 'function sk_check() { return true; }'],
  ['a kebab-case id with "sk-"', 'task-ask-me'],
  ['a skip flag', 'npm test -- --skip-tests'],
  ['a SpinKit class', '<div class="sk-spinner-wave-animation-rect">'],
  ['a sha256 digest', 'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ['a UUID', 'request 123e4567-e89b-12d3-a456-426614174000 failed'],
  ['a small base64 image in docs', '![dot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)'],
  ['newlines, CRLF and tabs', 'Line one\nLine two\r\n\tindented'],
  ['a git commit id', 'commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904'],
  ['a password read from a function', 'const password = getPassword();'],
  ['a key read from the environment', 'const apiKey = process.env.OPENAI_API_KEY;'],
  ['a redacted password', 'password: <redacted>'],
  ['a masked password', 'DB_PASSWORD=***'],
  ['a xxx placeholder', 'API_KEY=xxxxxxxxxxxxxxxx'],
  ['changeme', 'SECRET=changeme'],
  ['a ${VAR} reference', 'export API_KEY=${API_KEY}'],
  ['a $VAR reference', 'API_KEY=$OPENAI_API_KEY'],
  ['a member reference', 'password = config.database.password'],
  ['a comparison', 'if (password === confirmPassword) {'],
  ['a quoted label', '"password": "The password the user typed"'],
  ['an env var named in prose', 'Set the API key: `OPENAI_API_KEY` in .env.local'],
  ['a sentence after "secret:"', 'The client secret: something we keep in Vault'],
  ['a length setting', 'passwordMinLength: 12345678'],
  ['a Kubernetes secret name', 'secretName: my-app-credentials'],
  ['a Docker secret file', 'PASSWORD_FILE=/run/secrets/db_password'],
  ['a commit message', 'git commit -m "fix: skip flaky test"'],
  ['a JWT header alone', 'the header eyJhbGciOiJIUzI1NiJ9 says HS256'],
  ['a bearer header with a variable', 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com'],
  ['a bearer header with a placeholder', 'Authorization: Bearer <token>'],
  ['a bearer header built in code', 'headers: { Authorization: `Bearer ${token}` }'],
  ['a local database URL (user = password)', 'postgres://postgres:postgres@localhost:5432/test'],
  ['a database URL with a variable', 'https://user:${DB_PASSWORD}@db.example.com'],
  ['a documentation URL with user:pass', 'curl https://user:pass@example.com/api'],
  ['a URL with a port', 'http://localhost:8080/health@v2'],
  ['a GitHub Actions secret reference', 'password: ${{ secrets.DB_PASSWORD }}'],
  ['a Kubernetes secret key reference', 'secretKeyRef: { name: db, key: password }'],
  ['an scp-style remote', 'git@github.com:org/repo.git'],
  ['prose about AWS key ids', 'AKIA is the prefix of AWS access key ids'],
  ['prose about GitHub tokens', 'ghp_ marks classic GitHub tokens and xoxb- marks Slack bot tokens'],
  ['prose about Stripe keys', 'sk_live_ keys must never be committed'],
  ['certificate and public key headers', '-----BEGIN CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----'],
  ['an SSH public key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl dev@host'],
  ['a zod schema', 'apiKey: z.string().min(20)'],
  ['a hashed password call', 'password: hash(password)'],
  ['a destructuring', 'const { password, ...rest } = user;'],
  ['a Python type hint', 'api_key: Optional[str] = None'],
  ['a password read from os.environ', 'aws_secret_access_key = os.environ["AWS_SECRET_ACCESS_KEY"]'],
  ['a masked value', 'password: ********'],
  ['an ERB template', 'SECRET_KEY_BASE=<%= ENV["SECRET_KEY_BASE"] %>'],
  ['a docker login with stdin', 'echo $GITHUB_TOKEN | docker login ghcr.io -u USER --password-stdin'],
  ['a token count', 'max_tokens = 123456789'],
  ['Unicode prose and emoji', 'Build fails on 世界 paths — use ASCII names 😀'],
  ['memory and partition ids', 'mem_0123456789abcdef in ws_0123456789abcdef'],
  ['a long random hex blob', keyChars(64, HEX)],
  ['a lock file integrity hash', 'integrity sha512-7Gq8Cjv7Js0b2dBzJ9JYcWn8Zk3fX0pV4a1zE2QkqS5nR3wQ8w9Yc1GdK7uJ0wZs3aVbNq2eL4tY6mXoHpI+Fw=='],
  ['a placeholder key', 'OPENAI_API_KEY=your-api-key-here'],
];

describe('[memory-intake] detectUnsafe refuses credentials and hidden characters', () => {
  it('has a large table', () => {
    expect(UNSAFE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(UNSAFE)('%s', (_what, text, secret, fragment) => {
    const reason = detectUnsafe(text);
    expect(reason).toContain(fragment);
    expect(reason).toMatch(/^contains /);
    expect(reason).not.toContain(secret);
  });

  it('finds a secret anywhere in a long body', () => {
    const body = `${'Ran the suite; all green. '.repeat(100)}token ${SECRETS.github} ${'More notes. '.repeat(100)}`;
    expect(detectUnsafe(body)).toBe('contains a GitHub token');
  });
});

describe('[memory-intake] detectUnsafe lets ordinary code and prose through', () => {
  it('has a large table', () => {
    expect(SAFE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(SAFE)('%s', (_what, text) => {
    expect(detectUnsafe(text)).toBeUndefined();
  });

  it('accepts the empty string', () => {
    expect(detectUnsafe('')).toBeUndefined();
  });
});
