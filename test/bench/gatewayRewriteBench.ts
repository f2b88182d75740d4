// The gateway's manage-mode rewrite time on a 150k-token request (issue 23 item 5; target <= 10 ms
// p50). Prints the figures and writes test/bench/results/gatewayRewrite.json; asserts nothing.
// Run with `npm run bench:gateway-rewrite`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureGatewayRewrite } from '../support/measureGatewayRewrite';

const figures = measureGatewayRewrite();
const line = (name: string, f: { calls: number; p50Ms: number; p95Ms: number }) => `${name}: ${f.calls} calls, p50 ${f.p50Ms.toFixed(2)} ms, p95 ${f.p95Ms.toFixed(2)} ms`;
console.log(`manage-mode rewrite of a ${figures.requestTokens.toLocaleString('en-US')}-token Anthropic request`);
console.log(line('  inside a generation', figures.withinGeneration));
console.log(line('  at a boundary', figures.boundaries));
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'gatewayRewrite.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(figures, null, 2)}\n`);
