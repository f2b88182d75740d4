import { describe, expect, it } from 'vitest';
import { parseGatewayArgs } from '../../../electron/cli/gatewayCommand';

describe('[gateway-cli] strata gateway options', () => {
  it('[gateway-cli] defaults to observe mode on port 8787 with the real providers', () => {
    expect(parseGatewayArgs([])).toEqual({ port: 8787, manage: false, upstreams: {}, help: false });
  });

  it('[gateway-cli] reads every option, in both spellings', () => {
    expect(parseGatewayArgs(['--port', '0', '--manage', '--anthropic-upstream', 'http://127.0.0.1:9', '--openai-upstream=https://llm.example/v1', '--workspace', 'proj', '--web-port=4000', '--context-window=272_000'])).toEqual({
      port: 0,
      manage: true,
      contextWindow: 272_000,
      upstreams: { anthropic: 'http://127.0.0.1:9', openai: 'https://llm.example/v1' },
      workspace: 'proj',
      webPort: 4000,
      help: false,
    });
    expect(parseGatewayArgs(['-h']).help).toBe(true);
  });

  it('[gateway-cli] refuses a bad value or an unknown option by name', () => {
    expect(() => parseGatewayArgs(['--port', '70000'])).toThrow(/--port must be an integer from 0 to 65535/);
    expect(() => parseGatewayArgs(['--port'])).toThrow(/--port needs a value/);
    expect(() => parseGatewayArgs(['--anthropic-upstream', 'ftp://x'])).toThrow(/--anthropic-upstream must be an http or https URL/);
    expect(() => parseGatewayArgs(['--openai-upstream', 'not a url'])).toThrow(/--openai-upstream must be an http or https URL/);
    expect(() => parseGatewayArgs(['--context-window', '999'])).toThrow(/--context-window must be a whole number of tokens from 1000 to 10000000 \(got "999"\)/);
    expect(() => parseGatewayArgs(['--context-window', '2e5'])).toThrow(/--context-window must be a whole number/);
    expect(() => parseGatewayArgs(['--observe'])).toThrow(/Unknown option --observe for gateway/);
    expect(() => parseGatewayArgs(['now'])).toThrow(/Unexpected argument "now" after "gateway"/);
  });
});
