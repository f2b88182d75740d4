#!/usr/bin/env node
// Draws the Strata mark and writes every icon the packagers read, all PNG-encoded:
//   icons/NxN.png (Linux: electron-builder takes the sizes from this folder), icon.png (1024),
//   icon.ico (Windows, PNG entries 16..256) and icon.icns (macOS, PNG entries 16..1024).
// `node resources/icons/generate.mjs [outDir]` writes into outDir (default: resources/).
// Plain Node, no dependencies. Same bytes on every run: the drawing uses only exact float arithmetic
// (no sqrt or trig), the PNGs carry no timestamps and deflate runs at a fixed level.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

/** Sizes of the Linux icon set (icons/NxN.png). */
export const SET_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
/** Sizes inside icon.ico; 256 is written as 0 in the directory entry, as the format requires. */
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
/** ICNS element types whose payload is a PNG, with the pixel size each one holds. */
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
];

const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));

// The mark in unit coordinates: a dark rounded square holding four stacked bands, L0 (narrow, top)
// to L3 (wide, bottom), like the context layers they stand for.
const BACKGROUND = { x0: 0.04, y0: 0.04, x1: 0.96, y1: 0.96, r: 0.2, rgb: hex('#0f1115') };
const BAND_COLORS = ['#4f8cff', '#38bdf8', '#34d399', '#fbbf24'];
const BAND_WIDTHS = [0.4, 0.5, 0.6, 0.7];
const BAND_HEIGHT = 0.115;
const BAND_GAP = 0.05;
const BANDS_TOP = (1 - (4 * BAND_HEIGHT + 3 * BAND_GAP)) / 2;
const BANDS = BAND_COLORS.map((color, i) => {
  const y0 = BANDS_TOP + i * (BAND_HEIGHT + BAND_GAP);
  const half = BAND_WIDTHS[i] / 2;
  return { x0: 0.5 - half, y0, x1: 0.5 + half, y1: y0 + BAND_HEIGHT, r: BAND_HEIGHT * 0.35, rgb: hex(color) };
});

function inside(u, v, s) {
  if (u < s.x0 || u > s.x1 || v < s.y0 || v > s.y1) return false;
  const dx = Math.max(s.x0 + s.r - u, 0, u - (s.x1 - s.r));
  const dy = Math.max(s.y0 + s.r - v, 0, v - (s.y1 - s.r));
  return dx * dx + dy * dy <= s.r * s.r;
}

/** RGBA pixels (straight alpha) of the mark at `size` px, each pixel the mean of a grid of samples. */
export function renderMark(size) {
  const grid = size >= 256 ? 4 : 8;
  const samples = grid * grid;
  const pixels = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    const rows = [];
    for (let sy = 0; sy < grid; sy++) {
      const v = (y + (sy + 0.5) / grid) / size;
      rows.push({ v, band: BANDS.find((b) => v >= b.y0 && v <= b.y1) });
    }
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (const { v, band } of rows) {
        for (let sx = 0; sx < grid; sx++) {
          const u = (x + (sx + 0.5) / grid) / size;
          if (!inside(u, v, BACKGROUND)) continue;
          const rgb = band && inside(u, v, band) ? band.rgb : BACKGROUND.rgb;
          r += rgb[0];
          g += rgb[1];
          b += rgb[2];
          covered++;
        }
      }
      if (covered === 0) continue;
      const o = (y * size + x) * 4;
      pixels[o] = Math.round(r / covered);
      pixels[o + 1] = Math.round(g / covered);
      pixels[o + 2] = Math.round(b / covered);
      pixels[o + 3] = Math.round((255 * covered) / samples);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309, as PNG chunks use it) of `bytes`. */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG file: 8-bit RGBA, no interlace, every scanline unfiltered, one IDAT. */
export function encodePng(size, pixels) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++) raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO whose entries are the given PNGs (Vista and later read PNG entries at any size). */
export function encodeIco(pngs) {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, png }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4); // colour planes
    header.writeUInt16LE(32, e + 6); // bits per pixel
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...pngs.map((p) => p.png)]);
}

/** An ICNS file of (type, PNG) elements; every length is big-endian and includes its 8-byte header. */
export function encodeIcns(elements) {
  const parts = elements.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

/** Writes icons/NxN.png, icon.png, icon.ico and icon.icns under `outDir`; returns the paths written. */
export function writeIcons(outDir) {
  const pngs = new Map(SET_SIZES.map((size) => [size, encodePng(size, renderMark(size))]));
  const files = [
    ...SET_SIZES.map((size) => [join('icons', `${size}x${size}.png`), pngs.get(size)]),
    ['icon.png', pngs.get(1024)],
    ['icon.ico', encodeIco(ICO_SIZES.map((size) => ({ size, png: pngs.get(size) })))],
    ['icon.icns', encodeIcns(ICNS_TYPES.map(([type, size]) => ({ type, png: pngs.get(size) })))],
  ];
  mkdirSync(join(outDir, 'icons'), { recursive: true });
  for (const [name, bytes] of files) writeFileSync(join(outDir, name), bytes);
  return files.map(([name]) => join(outDir, name));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  for (const file of writeIcons(outDir)) console.log(`wrote ${file}`);
}
