/**
 * What to give each client to send its model calls through the gateway at `origin`
 * (`[gateway-client-lines]`): Claude Code and the Anthropic SDKs take the origin as
 * `ANTHROPIC_BASE_URL`; Codex a `model_providers` entry in `~/.codex/config.toml` speaking the
 * Responses API at `<origin>/v1`; the OpenAI SDKs (and OpenCode's OpenAI provider) `OPENAI_BASE_URL`
 * at `<origin>/v1`. The client's own key stays where it is.
 */
export interface ClientLine {
  client: string;
  where: string;
  text: string;
}

export function clientLines(origin: string): ClientLine[] {
  return [
    { client: 'Claude Code', where: 'shell', text: `ANTHROPIC_BASE_URL=${origin}` },
    {
      client: 'Codex',
      where: '~/.codex/config.toml',
      text: ['model_provider = "strata"', '', '[model_providers.strata]', 'name = "Strata gateway"', `base_url = "${origin}/v1"`, 'wire_api = "responses"', 'env_key = "OPENAI_API_KEY"'].join('\n'),
    },
    { client: 'OpenAI SDKs', where: 'shell', text: `OPENAI_BASE_URL=${origin}/v1` },
  ];
}
