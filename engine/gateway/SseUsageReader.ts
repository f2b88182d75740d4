import { Utf8StreamDecoder } from '../text/Utf8StreamDecoder';
import { anthropicUsage, providerReasonOf, upstreamErrorOf, usageOfObject } from './usageOf';
import type { GatewayApi, GatewayUsage } from './types';

/**
 * Reads a provider's event stream as it passes through and keeps only what a call record needs
 * (`[gateway-sse-usage]`): the usage, the provider's error and its cache-miss reason. It takes the
 * bytes in whatever pieces they come (a chunk may end mid-line or inside a UTF-8 sequence: the
 * decoder is streaming and a line waits for its end) and holds only the line and the event being
 * read, never the stream. An event whose data passes `maxEventChars` is skipped and counted.
 *
 * - Anthropic: `message_start` carries the input side of usage, `message_delta` the final figures
 *   (the fields it names replace the start's); an `error` event names the error.
 * - OpenAI Responses: `response.completed` (or `.incomplete`, `.failed`) carries `response.usage`
 *   and `response.error`; an `error` event names the error.
 * - Chat Completions: the chunk with a non-null `usage` (sent only with
 *   `stream_options.include_usage`); a chunk with `error` names the error; `[DONE]` ends it.
 */

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const DEFAULT_MAX_EVENT_CHARS = 32 * 1024 * 1024;

export class SseUsageReader {
  usage: GatewayUsage | undefined;
  error: string | undefined;
  providerReason: string | undefined;
  /** Events read, and events skipped (data over the limit, or not JSON). */
  events = 0;
  skipped = 0;
  private readonly decoder = new Utf8StreamDecoder();
  private pending = '';
  private afterCr = false;
  private eventName = '';
  private data: string[] = [];
  private dataChars = 0;
  private tooLong = false;

  constructor(
    private readonly api: GatewayApi,
    private readonly maxEventChars = DEFAULT_MAX_EVENT_CHARS,
  ) {}

  push(chunk: Uint8Array): void {
    this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended: what is left of the decoder and a last event without its blank line are read. */
  end(): void {
    this.feed(this.decoder.decode());
    if (this.pending !== '') this.line(this.pending);
    this.pending = '';
    this.dispatch();
  }

  private feed(text: string): void {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a && this.afterCr && i === start && this.pending === '') {
        // The \n of a \r\n whose \r ended the previous piece.
        this.afterCr = false;
        start = i + 1;
        continue;
      }
      this.afterCr = false;
      if (c !== 0x0a && c !== 0x0d) continue;
      this.line(this.pending + text.slice(start, i));
      this.pending = '';
      if (c === 0x0d) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 0x0a) i++;
        } else this.afterCr = true;
      }
      start = i + 1;
    }
    if (start < text.length) this.pending += text.slice(start);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') {
      this.dataChars += value.length + 1;
      if (this.dataChars > this.maxEventChars) {
        this.tooLong = true;
        this.data = [];
      } else if (!this.tooLong) this.data.push(value);
    }
  }

  private dispatch(): void {
    const hadData = this.data.length > 0 || this.tooLong;
    const name = this.eventName;
    const text = this.data.join('\n');
    const tooLong = this.tooLong;
    this.eventName = '';
    this.data = [];
    this.dataChars = 0;
    this.tooLong = false;
    if (!hadData) return;
    this.events++;
    if (tooLong) {
      this.skipped++;
      return;
    }
    if (text === '[DONE]') return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.skipped++;
      return;
    }
    if (isRecord(json)) this.event(typeof json['type'] === 'string' ? json['type'] : name, json);
  }

  private event(type: string, json: Json): void {
    if (type === 'error') {
      const e = isRecord(json['error']) ? json['error'] : json;
      const kind = typeof e['code'] === 'string' ? e['code'] : typeof e['type'] === 'string' && e['type'] !== 'error' ? e['type'] : 'error';
      this.error = typeof e['message'] === 'string' ? `${kind}: ${e['message']}` : kind;
      return;
    }
    if (this.api === 'anthropic-messages' || this.api === 'anthropic-count-tokens') {
      if (type === 'message_start' && isRecord(json['message'])) {
        const u = json['message']['usage'];
        if (isRecord(u)) this.usage = anthropicUsage(u);
        this.providerReason = providerReasonOf(json['message']) ?? this.providerReason;
      } else if (type === 'message_delta') {
        const u = json['usage'];
        if (isRecord(u)) this.usage = anthropicUsage(u, this.usage);
        this.providerReason = providerReasonOf(json) ?? providerReasonOf(json['delta']) ?? this.providerReason;
      }
      return;
    }
    if (this.api === 'openai-responses') {
      const response = json['response'];
      if (!/^response\.(completed|incomplete|failed|done)$/.test(type) || !isRecord(response)) return;
      if (isRecord(response['usage'])) this.usage = usageOfObject(this.api, response['usage']);
      this.error = upstreamErrorOf(json) ?? this.error;
      this.providerReason = providerReasonOf(response) ?? this.providerReason;
      return;
    }
    if (isRecord(json['usage'])) this.usage = usageOfObject(this.api, json['usage']);
    this.error = upstreamErrorOf(json) ?? this.error;
  }
}
