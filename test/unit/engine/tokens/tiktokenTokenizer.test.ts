import { Tiktoken, getEncodingNameForModel } from 'js-tiktoken/lite';
import type { TiktokenModel } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTiktokenTokenizer, encodingForModel } from '../../../../engine/tokens/tiktokenTokenizer';
import type { TiktokenEncodingName } from '../../../../engine/tokens/tiktokenTokenizer';

const SAMPLES = [
  'hello world',
  'The quick brown fox jumps over the lazy dog.',
  'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  '上下文引擎会在刷新时保留已验证的发现。',
  'emoji 😀🎉 and accents: café, naïve, Ångström',
  '    indented\n\n\n\ttabs\r\nand CRLF',
];

const o200k = createTiktokenTokenizer();
const cl100k = createTiktokenTokenizer('cl100k_base');
const reference: Partial<Record<TiktokenEncodingName, Tiktoken>> = {};

beforeAll(() => {
  // Building the rank tables takes about a second each; warm both once for the whole file.
  o200k.count('warm up');
  cl100k.count('warm up');
  reference.o200k_base = new Tiktoken(o200kBase);
  reference.cl100k_base = new Tiktoken(cl100kBase);
}, 60_000);

describe('createTiktokenTokenizer counts like js-tiktoken', () => {
  it('defaults to o200k_base and names its encoding', () => {
    expect(o200k.encoding).toBe('o200k_base');
    expect(cl100k.encoding).toBe('cl100k_base');
  });

  it.each([
    ['o200k_base', o200k],
    ['cl100k_base', cl100k],
  ] as const)('%s: "hello world" is 2 tokens and the empty text 0', (_name, tokenizer) => {
    expect(tokenizer.count('hello world')).toBe(2);
    expect(tokenizer.count('')).toBe(0);
  });

  it.each(SAMPLES)('both encodings agree exactly with a direct encode of %j', (text) => {
    expect(o200k.count(text)).toBe(reference.o200k_base!.encode(text).length);
    expect(cl100k.count(text)).toBe(reference.cl100k_base!.encode(text).length);
  });

  it('the two encodings differ on non-English text', () => {
    const text = SAMPLES[3]!;
    expect(o200k.count(text)).not.toBe(cl100k.count(text));
    expect(o200k.count(text)).toBeLessThan(cl100k.count(text));
  });

  it.each(['<|endoftext|>', 'before <|endoftext|> after', '<|fim_prefix|><|endofprompt|>'])(
    'counts special-token text %j as plain text instead of throwing',
    (text) => {
      for (const [encoding, tokenizer] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
        expect(() => reference[encoding]!.encode(text)).toThrow();
        expect(tokenizer.count(text)).toBe(reference[encoding]!.encode(text, [], []).length);
        expect(tokenizer.count(text)).toBeGreaterThan(1);
      }
    },
  );

  // js-tiktoken's merge is quadratic in the length of one pre-token; a run longer than the longest
  // token (128 units) is counted in 128-unit chunks, each cut costing at most about 2 tokens.
  // Lengths here keep the direct encode affordable.
  it.each([
    { name: 'spaces', run: ' '.repeat(300), text: (run: string) => `header\n${run}x = 1\n` },
    { name: 'equals', run: '='.repeat(400), text: (run: string) => `# Title\n${run}\nbody text` },
    { name: 'letters', run: 'abcdefghij'.repeat(30), text: (run: string) => `id: ${run} end` },
    { name: 'newlines', run: '\n'.repeat(500), text: (run: string) => `a${run}b` },
    { name: 'CJK', run: '上下文引擎保留发现'.repeat(20), text: (run: string) => `${run}。` },
    { name: 'emoji', run: '😀'.repeat(150), text: (run: string) => `x${run}y` },
  ])('stays close to a direct encode when one pre-token is long: $name', ({ run, text }) => {
    const cuts = Math.ceil(run.length / 128);
    for (const [encoding, tokenizer] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
      const exact = reference[encoding]!.encode(text(run), [], []).length;
      expect(Math.abs(tokenizer.count(text(run)) - exact)).toBeLessThanOrEqual(2 * cuts);
    }
  });

  it('counts huge runs of one character in linear time', () => {
    // A direct encode of any of these takes from minutes to an hour; the test timeout is the check.
    expect(o200k.count(' '.repeat(100_000))).toBe(782);
    expect(o200k.count('='.repeat(100_000))).toBeGreaterThan(1000);
    expect(cl100k.count(`log\n${'-'.repeat(200_000)}\nend`)).toBeGreaterThan(1000);
  });

  it('shares one loaded encoding between tokenizers', () => {
    expect(createTiktokenTokenizer('o200k_base').count(SAMPLES[1]!)).toBe(o200k.count(SAMPLES[1]!));
  });
});

describe('encodingForModel', () => {
  it.each([
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['gpt-35-turbo', 'cl100k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-turbo-2024-04-09', 'cl100k_base'],
    ['gpt-4-32k', 'cl100k_base'],
    ['openai/gpt-4', 'cl100k_base'],
    ['GPT-4-0613', 'cl100k_base'],
    ['text-embedding-ada-002', 'cl100k_base'],
    ['text-embedding-3-large', 'cl100k_base'],
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['gpt-4.5-preview', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['gpt-5.1-codex', 'o200k_base'],
    ['o1-mini', 'o200k_base'],
    ['o3', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['claude-sonnet-4-5', 'o200k_base'],
    ['anthropic/claude-opus-4-1', 'o200k_base'],
    ['deepseek-chat', 'o200k_base'],
    ['deepseek-reasoner', 'o200k_base'],
    ['some-unknown-model', 'o200k_base'],
    ['', 'o200k_base'],
  ])('%j -> %s', (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });

  // Every OpenAI chat/embedding model js-tiktoken maps to one of our two encodings.
  const OPENAI_MODELS: TiktokenModel[] = [
    'gpt-3.5-turbo', 'gpt-3.5-turbo-16k', 'gpt-3.5-turbo-instruct', 'gpt-35-turbo', 'gpt-4', 'gpt-4-0314',
    'gpt-4-32k-0613', 'gpt-4-1106-preview', 'gpt-4-vision-preview', 'gpt-4-turbo', 'gpt-4-turbo-preview',
    'text-embedding-ada-002', 'text-embedding-3-small', 'gpt-4o', 'gpt-4o-2024-11-20', 'gpt-4o-mini-2024-07-18',
    'gpt-4o-realtime', 'chatgpt-4o-latest', 'o1', 'o1-preview', 'o1-pro', 'o3-mini', 'o4-mini-2025-04-16',
    'gpt-4.1', 'gpt-4.1-mini-2025-04-14', 'gpt-4.5-preview-2025-02-27', 'gpt-5', 'gpt-5-nano', 'gpt-5-chat-latest',
  ];
  it.each(OPENAI_MODELS)('%s agrees with js-tiktoken', (model) => {
    expect(encodingForModel(model)).toBe(getEncodingNameForModel(model));
  });
});
