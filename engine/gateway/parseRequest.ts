import type { BlockHashMemo } from './BlockHashMemo';
import { MAX_JSON_NESTING, jsonNestingBeyond } from '../text/jsonNesting';
import { providerOf } from './apiOfPath';
import { clientIdentity } from './clientIdentity';
import { primeRawTexts } from './jsonText';
import { blocksOf } from './requestBlocks';
import type { GatewayApi, ParsedRequest } from './types';

/**
 * A request body as the gateway understands it (`[gateway-parse]`), or why it cannot: the checks
 * are the ones the provider would refuse the request for before reading it (not JSON, not an
 * object, no model, messages / input of the wrong type), so a request that passes here is one the
 * provider would read. Pure; the body is parsed once and kept untouched in `ParsedRequest.body`.
 */

/** Why a body could not be read, in words for the operator and the provider-style error. */
export interface ParseFailure {
  failure: string;
}

export const isParseFailure = (r: ParsedRequest | ParseFailure): r is ParseFailure => 'failure' in r;

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkShape(api: GatewayApi, body: Json): string | undefined {
  if (typeof body['model'] !== 'string' || body['model'] === '') return 'model: a non-empty string is required';
  if (api === 'openai-responses') {
    const input = body['input'];
    if (input !== undefined && typeof input !== 'string' && !Array.isArray(input)) return 'input: must be a string or an array of items';
    if (body['instructions'] !== undefined && body['instructions'] !== null && typeof body['instructions'] !== 'string') return 'instructions: must be a string';
  } else {
    const messages = body['messages'];
    if (!Array.isArray(messages)) return 'messages: an array is required';
    const bad = messages.findIndex((m) => !isRecord(m) || typeof m['role'] !== 'string');
    if (bad !== -1) return `messages.${bad}: must be an object with a string role`;
  }
  if (body['tools'] !== undefined && !Array.isArray(body['tools'])) return 'tools: must be an array';
  return undefined;
}

/** `bodyText` (the decoded body) of a request to `api`, with its lower-case `headers`; `memo` spares hashing blocks seen before. */
export function parseRequest(api: GatewayApi, headers: Readonly<Record<string, string>>, bodyText: string, memo?: BlockHashMemo): ParsedRequest | ParseFailure {
  if (jsonNestingBeyond(bodyText) !== -1) return { failure: `the body nests deeper than ${MAX_JSON_NESTING} levels` };
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (e) {
    return { failure: `the body is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!isRecord(body)) return { failure: 'the body is not a JSON object' };
  const problem = checkShape(api, body);
  if (problem) return { failure: problem };
  // The memo looks values up by the body slices they came from (`keyTextOf`).
  if (memo) primeRawTexts(body, bodyText);
  const identity = clientIdentity(headers, body);
  const parsed: ParsedRequest = {
    api,
    provider: providerOf(api),
    model: body['model'] as string,
    stream: api !== 'anthropic-count-tokens' && body['stream'] === true,
    blocks: blocksOf(api, body, memo),
    body,
  };
  if (identity.client) parsed.client = identity.client;
  if (identity.clientSessionId) parsed.clientSessionId = identity.clientSessionId;
  if (identity.clientThread) parsed.clientThread = identity.clientThread;
  return parsed;
}
