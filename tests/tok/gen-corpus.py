#!/usr/bin/env python3
"""Writes the tokenizer test corpus (one JSON string per line) to stdout.

Deterministic (seeded): code, prose in many scripts, emoji ZWJ sequences,
combining marks, whitespace runs, CR/LF, digits, special-token strings, long
repeats, lone surrogates and other edge cases, then random mixes of them,
then 5000 short random strings of the characters the regexes tell apart.
Expected ids come from ../shared/tools/tok-oracle.mjs (see tests/tok/README).
"""
import json
import random
import sys

R = random.Random(20251126)

PROSE = [
    "The quick brown fox jumps over the lazy dog.",
    "It's a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife.",
    "Don't stop believin'! I'm sure you'll see; we've done it, they'd agree, she's right.",
    "DON'T SHOUT. WE'RE HERE. THEY'VE GONE. I'LL GO. He'D know.",
    "Le cœur a ses raisons que la raison ne connaît point. À bientôt, ça va?",
    "Über den Wolken muss die Freiheit wohl grenzenlos sein. Straße, Größe, Fußgänger.",
    "¿Dónde está la biblioteca? ¡Qué día tan bonito! Niño, año, señor.",
    "Москва — столица России. Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "Η γρήγορη καφέ αλεπού πηδά πάνω από τον τεμπέλη σκύλο. Ελληνικά!",
    "العربية لغة جميلة. مرحبا بالعالم! كيف حالك اليوم؟",
    "שלום עולם! עברית נכתבת מימין לשמאל.",
    "हिन्दी भारत की राजभाषा है। नमस्ते दुनिया!",
    "বাংলা ভাষা খুব সুন্দর। আমি তোমাকে ভালোবাসি।",
    "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ สวัสดีครับ",
    "中文分词是自然语言处理的基础任务之一。你好，世界！",
    "日本語のテキストを処理します。カタカナとひらがな、漢字が混在しています。",
    "한국어 문장은 띄어쓰기를 사용합니다. 안녕하세요, 세계!",
    "Tiếng Việt có nhiều dấu thanh: à á ả ã ạ, ư ơ ê ô.",
    "ქართული ენა ძალიან ლამაზია. Հայերեն լեզու։",
    "አማርኛ ቋንቋ ነው። தமிழ் ஒரு பழமையான மொழி.",
    "Ελληνικά, русский, ‘quotes’ “double” «guillemets» „low“ — em–en dashes…",
    "ſ long s, ß sharp s, ﬀ ﬁ ﬂ ligatures, Å Ω K (Kelvin) µ.",
    "Ѐ ѐ İ ı ǅ ǈ ǋ ǲ titlecase digraphs and dotted I.",
]

CODE = [
    "def f(x):\n    return x**2  # comment\n",
    "int main(int argc, char **argv) {\n\tprintf(\"%d\\n\", argc);\n\treturn 0;\n}\n",
    "for (let i = 0; i < n; i++) { sum += a[i] >>> 1; } // JS",
    "{\"key\": [1, 2.5, -3e10, true, null], \"nested\": {\"a\": \"b\"}}",
    "<html><body class=\"x\"><p>Hello &amp; bye</p></body></html>",
    "SELECT id, name FROM users WHERE age >= 18 AND name LIKE '%bob%';",
    "fn main() -> Result<(), Box<dyn Error>> { let v: Vec<u8> = vec![]; Ok(()) }",
    "    if (a && b) { c++; } else if (!d || e != f) { g--; }",
    "import numpy as np\nx = np.arange(10).reshape(2, 5)\r\nprint(x.T @ x)",
    "#!/bin/sh\nset -eu\nfor f in *.txt; do wc -l \"$f\"; done 2>/dev/null | sort -n",
    "https://example.com/path/to/page?query=1&b=c#frag mailto:a@b.co",
    "    \t  mixed indent\n\t\t\ttabs\n        eight spaces",
    "a=1;b=2;c=a+b*3/4-5%6^7|8&9~0",
    "/* block */ // line\n-- sql\n# hash\n%% matlab\n; lisp",
]

EMOJI = [
    "👨‍👩‍👧‍👦", "👩🏽‍💻", "🏳️‍🌈", "🏴‍☠️", "❤️", "❤︎", "1️⃣", "#️⃣", "🇫🇷🇩🇪🇯🇵",
    "👍🏻👍🏼👍🏽👍🏾👍🏿", "🧑‍🤝‍🧑", "🫠", "😀😃😄😁", "🙂‍↔️", "🐈‍⬛", "👁️‍🗨️",
    "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "✌️", "☺", "🎉🚀", "🇺🇳", "💁‍♀️",
]

COMBINING = [
    "e\u0301", "a\u0308", "n\u0303", "A\u030a", "\u212b", "\u00c5", "o\u0302\u0323",
    "Z\u0351\u0311\u0313a\u0367\u0300l\u0350\u0315g\u0356o\u035c",
    "\u0915\u094d\u0937", "\u1100\u1161\u11a8", "\uac01", "\u0627\u0644\u0652",
    "i\u0307", "\u0041\u030a\u0301", "\u1e9b\u0323", "\ufb01", "\u2126", "\u00bd",
    "\u0301start", "x\u20dd", "\u3099\u304b\u3099",
]

SPACES = [
    " ", "  ", "   ", "\t", "\t\t", "\n", "\n\n", "\r\n", "\r", "\r\r\n", " \n ",
    "\u00a0", "\u2003", "\u3000", "\u2028", "\u2029", "\u200b", "\u200d", "\ufeff",
    "\u0085", "\u180e", "\u000b", "\u000c", "\u202f", "\u205f", " \t \n", "\n \n",
]

DIGITS = [
    "0", "7", "42", "123", "1234", "12345", "1234567890", "3.14159", "-42",
    "1,000,000", "2025-11-26", "0x1F", "1e-10", "١٢٣٤٥", "１２３", "²³", "Ⅻ", "½",
    "৩৪", "٣.١٤", "9999999999999999", "007", "v1.2.3", "10:30:45", "+1 (555) 010-9999",
]

SPECIALS = [
    "<|im_end|>", "<|im_start|>", "<|endoftext|>", "<s>", "</s>", "<unk>",
    "<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>", "<|start_header_id|>",
    "<|reserved_special_token_5|>", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>",
    "<|startoftext|>", "<|return|>", "<|channel|>", "<|message|>", "<|fim_prefix|>",
    "<|endofprompt|>", "<think>", "</think>", "<tool_call>", "<|vision_pad|>",
    "<|im_end", "im_end|>", "<|endoftext|", "< s>", "<s >", "<<s>>", "<|<|im_end|>|>",
    "<｜fim▁hole｜>", "<|box_start|>", "<0x0A>", "▁", "Ġ", "Ċ",
]

EDGE = [
    "", " ", "a", "\u0000", "\u0001\u0002\u001f", "\u007f", "\u0080\u009f",
    "\ud800", "\udc80", "a\udcffb", "\ud83d", "\ud83dx\ude00", "\ue000\uf8ff",
    "\uffff\ufffe", "\U0010ffff", "\U000e0001", "\ufffd", "'s", "'", "''", "'S'T",
    "x's", "X'LL", "'ſ", "'K", "...", "!!!", "???", "$$$", "___", "---", "***",
    "a/b/c/", "\\n", "\\", "\"quoted\"", "trailing   ", "   leading",
]


def long_repeats():
    return [
        "a" * 1000, "ab" * 500, " " * 500, "\n" * 300, "😀" * 200, "1" * 1000,
        "the " * 300, "\t" * 200, "é" * 300, "中" * 400, "<s>" * 50,
        "<|endoftext|>" * 40, "-" * 700, "=" * 64 + "\n" + "=" * 64,
        " " * 255 + "x", "x" * 5000, "ﬁ" * 100, "\r\n" * 100,
        "Lorem ipsum dolor sit amet, " * 40,
    ]


FRAGS = PROSE + CODE + EMOJI + COMBINING + SPACES + DIGITS + SPECIALS + EDGE

RANGES = [
    (0x20, 0x7e), (0xa0, 0x17f), (0x300, 0x36f), (0x370, 0x3ff), (0x400, 0x4ff),
    (0x590, 0x5ff), (0x600, 0x6ff), (0x900, 0x97f), (0xe00, 0xe7f), (0x1100, 0x11ff),
    (0x2000, 0x206f), (0x2190, 0x22ff), (0x3000, 0x30ff), (0x4e00, 0x4fff),
    (0xac00, 0xad00), (0xff00, 0xffef), (0x1f300, 0x1f64f), (0x1f900, 0x1f9ff),
]


def random_chars(n):
    out = []
    for _ in range(n):
        lo, hi = R.choice(RANGES)
        out.append(chr(R.randint(lo, hi)))
    return "".join(out)


def mix():
    k = R.randint(1, 8)
    parts = []
    for _ in range(k):
        r = R.random()
        if r < 0.75:
            parts.append(R.choice(FRAGS))
        else:
            parts.append(random_chars(R.randint(1, 12)))
        if R.random() < 0.5:
            parts.append(R.choice(SPACES + [" ", " ", " ", ""]))
    return "".join(parts)


def words():
    s = R.choice(PROSE + CODE).split()
    R.shuffle(s)
    sep = R.choice([" ", "  ", "\n", "\t", " \n", ""])
    return sep.join(s[: R.randint(1, len(s))])


def random_lines(count):
    """Short strings drawn character by character from the classes the
    pre-tokenizer regexes tell apart, with added-token strings mixed in."""
    r = random.Random(7)
    pool = list("abcSTtRrEeVvLlMmDd'''   \t\r\n\n/.!-_0123456789<>|") + [
        chr(c) for c in [
            0x17f, 0x212a, 0xc9, 0xe9, 0x1c5, 0x2b0, 0x5d0, 0x4e2d, 0x3042,
            0x30a2, 0x301, 0x308, 0x903, 0x20dd, 0x663, 0x216b, 0xbd, 0xb2,
            0xa0, 0x85, 0xfeff, 0x2028, 0x2029, 0x3000, 0x200b, 0x200d,
            0x1680, 0x1f600, 0x1f3fd, 0xe0041, 0xfffd, 0x2019, 0xff07,
            0x1d400, 0x2581, 0xac00, 0x1100, 0x0, 0x1, 0x7f, 0x9f, 0xad,
            0x10ffff, 0xe000]]
    frags = ["<|im_end|>", "<|endoftext|>", "<s>", "</s>", "<unk>",
             "<|begin_of_text|>", "<\uff5cbegin\u2581of\u2581sentence\uff5c>",
             "<|return|>", "<0x0A>", "\u2581\u2581", "'s", "'LL", "'\u017f",
             " the", "ing", "Hello", "\u4e16\u754c", "\U0001f600",
             "\U0001f468\u200d\U0001f469\u200d\U0001f467"]
    out = []
    for _ in range(count):
        n = r.choice([1, 2, 3, 5, 8, 13, 21, 40, 80])
        out.append("".join(r.choice(frags) if r.random() < 0.1 else r.choice(pool)
                           for _ in range(n)))
    return out


def main():
    lines = list(FRAGS) + long_repeats()
    for a in SPECIALS:
        for b in ("x", " x", "x ", "\n", "") :
            lines.append(b + a + b)
    while len(lines) < 4000:
        lines.append(mix() if R.random() < 0.7 else words())
    lines += random_lines(5000)
    out = sys.stdout
    for s in lines:
        lone = any(0xD800 <= ord(c) < 0xE000 for c in s)
        out.write(json.dumps(s, ensure_ascii=lone) + "\n")


main()
