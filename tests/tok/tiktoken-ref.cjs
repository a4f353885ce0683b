// tiktoken-ref.cjs: expected ids of OpenAI's tiktoken (Rust, built to wasm:
// npm package "tiktoken") for the tiktoken encodings of the test corpus.
// Usage: node tiktoken-ref.cjs o200k_base|cl100k_base [--decode] < lines
// Encode: each line a JSON string -> encode_ordinary ids. Decode: each line a
// JSON id array -> JSON string, UTF-8 decoded with U+FFFD for bad bytes and a
// leading BOM kept (as Python's bytes.decode does).
// Modules: $TIKTOKEN_MODULES (a folder holding node_modules/tiktoken).
const path = require('path');
const base = process.env.TIKTOKEN_MODULES || '/tmp/tiktoken-wasm';
const { get_encoding } = require(path.join(base, 'node_modules/tiktoken'));
const enc = get_encoding(process.argv[2]);
const decode = process.argv[3] === '--decode';
const td = new TextDecoder('utf-8', { ignoreBOM: true });
const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
const out = [];
rl.on('line', (l) => {
  const v = JSON.parse(l);
  out.push(JSON.stringify(decode ? td.decode(enc.decode(Uint32Array.from(v)))
    : Array.from(enc.encode_ordinary(v))));
});
rl.on('close', () => process.stdout.write(out.length ? out.join('\n') + '\n' : ''));
