// tok-ref.mjs: times the reference tokenizer's encode loop in-process, one
// thread, on the lines of a file, for bench/tokenizer.sh.
// Usage: node bench/tok-ref.mjs TOKENIZER LINES_FILE
//   TOKENIZER: a tokenizer.json[.zst] folder (Rust tokenizers 0.22.2 through
//   @anush008/tokenizers, encodeBatch with TOKENIZERS_PARALLELISM=false and
//   RAYON_NUM_THREADS=1: one thread, no per-call promise cost) or
//   o200k_base/cl100k_base (OpenAI's tiktoken wasm, encode_ordinary per line).
// Prints: "<seconds> <tokens> <load seconds>" (best of 3 encode runs).
import { createRequire } from 'node:module';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const [spec, file] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8').split('\n');
if (lines.length && lines[lines.length - 1] === '') lines.pop();
const mods = process.env.TOK_ORACLE_MODULES || '/tmp/tok-oracle';
const now = () => Number(process.hrtime.bigint()) / 1e9;

async function hf() {
  const req = createRequire(path.join(path.resolve(mods), 'x.js'));
  const { Tokenizer } = req('@anush008/tokenizers');
  let p = path.join(spec, 'tokenizer.json');
  const t0 = now();
  const text = existsSync(p) ? readFileSync(p, 'utf8')
    : execFileSync('zstd', ['-dc', p + '.zst'], { maxBuffer: 1 << 30 }).toString('utf8');
  const tok = Tokenizer.fromString(text);
  const load = now() - t0;
  let best = Infinity, total = 0;
  for (let r = 0; r < 3; r++) {
    const t = now();
    const encs = await tok.encodeBatch(lines, { addSpecialTokens: false });
    const dt = now() - t;
    total = 0;
    for (const e of encs) total += e.getIds().length;
    best = Math.min(best, dt);
  }
  return [best, total, load];
}

function tiktoken() {
  const req = createRequire(path.join(path.resolve(process.env.TIKTOKEN_MODULES || '/tmp/tiktoken-wasm'), 'x.js'));
  const t0 = now();
  const enc = req('tiktoken').get_encoding(spec);
  const load = now() - t0;
  let best = Infinity, total = 0;
  for (let r = 0; r < 3; r++) {
    const t = now();
    total = 0;
    for (const l of lines) total += enc.encode_ordinary(l).length;
    best = Math.min(best, now() - t);
  }
  return [best, total, load];
}

const [sec, n, load] = spec === 'o200k_base' || spec === 'cl100k_base' ? tiktoken() : await hf();
process.stdout.write(`${sec.toFixed(4)} ${n} ${load.toFixed(4)}\n`);
