/* SPDX-License-Identifier: Apache-2.0 */
/* The one rule for keeping credentials out of what the tools write. */
#ifndef AIPERF_REDACT_H
#define AIPERF_REDACT_H

#include <stddef.h>
#include "buf.h"

struct json;
struct jw;

/*
 * What is secret (man 7 aiperf, Secrets). One rule, redact_name(), says
 * whether a name holds a credential, whether it names a header, a URL
 * query parameter, an --extra-inputs key, a configuration key or a
 * command-line option. The name is read as words, case-insensitively:
 * runs of letters and digits, split where a lower-case letter meets an
 * upper-case one and where letters meet digits (X-Api-Key, apiKey,
 * client_secret, AWSAccessKeyId: AWS Access Key Id). It is a secret's
 *  - when its last word (words of digits aside) is key, token or sig, or
 *    its last two are key id (api_key, X-Amz-Security-Token, hf_token,
 *    Ocp-Apim-Subscription-Key, access_key_id);
 *  - when any word is auth, authorization, authentication, passphrase,
 *    passwords, secret, secrets, cookie, cookies, credential, credentials
 *    or signature (X-Auth-User, Set-Cookie, X-Amz-Credential,
 *    client_secret);
 *  - when any word ends in apikey, apitoken, accesskey, accesskeyid,
 *    secretkey, privatekey, accesstoken, authtoken, bearertoken, idtoken,
 *    refreshtoken, sessiontoken, securitytoken, clientsecret, password
 *    or passwd (xapikey, Password, userpassword);
 *  - but never when its last word is file: --api-key-file names a file.
 * So max_tokens, token_count, stop_token_ids, keys, monkey, tokenizer
 * and X-Request-Id are not secrets. Beside names, a URL's userinfo
 * (user:password@ before the host) is one.
 * A secret becomes REDACT_MARK, the original aiperf's text: its userinfo
 * as "scheme://<redacted>@host", a header as "Name: <redacted>", an
 * extra input as "key:<redacted>" or "key": "<redacted>".
 *
 * The redact_* writers append to a caller-owned buffer and return the
 * number of secrets they replaced (0: the text went out unchanged), or -1
 * when the buffer's cap was reached (what was appended stays). They
 * allocate nothing the caller must free.
 */
#define REDACT_MARK "<redacted>"

/* 1 when a thing called name[0..n) holds a credential (the rule above), else 0. */
int redact_name(const char *name, size_t n);
/* The header form's name, kept for its callers: the same rule. */
static inline int
redact_header_name(const char *name, size_t n)
{
	return redact_name(name, n);
}

/* A URL, with or without a scheme ("user:pw@host:8000/v1" too). */
int redact_url(struct buf *b, const char *url, size_t n);
/* One "Name: value" header line; a secret one as "Name: <redacted>". */
int redact_header(struct buf *b, const char *line, size_t n);
/*
 * One --extra-inputs argument as aiperf-gen reads it: a JSON object when
 * it starts with '{', each secret member's value redacted (one that does
 * not parse is redacted whole), else comma-separated key:value items,
 * a secret key's as "key:<redacted>".
 */
int redact_extra(struct buf *b, const char *s, size_t n);
/*
 * A command line as the wrapper writes it (words separated by spaces,
 * quoted as sh does): the values of secret options, of secret -H headers
 * and of --extra-inputs' secret keys, the userinfo and secret parameters
 * of URLs. Redacted words are written
 * back single-quoted when they need quotes ('<redacted>'); the rest of
 * the text is copied as it was.
 */
int redact_cli(struct buf *b, const char *cmd, size_t n);
/*
 * A program's argv as one command line, each word quoted as redact_cli
 * reads it, then redacted by it; a word that is a command line itself
 * (aiperf-export --cli-command) is redacted as one first.
 */
int redact_argv(struct buf *b, int argc, const char *const *argv);

/*
 * Write v to w as jw_value() would, redacting by member name: a secret
 * key's string or number (api_key), and every string or number inside a
 * secret key's object or array; "headers" as an object or as [name, value]
 * pairs or "Name: value" strings, "cli_command" through redact_cli(),
 * "extra" and "extra_inputs" strings through redact_extra(), and every
 * string holding "://" through redact_url(). Returns the count.
 */
int redact_json(struct jw *w, const struct json *v);

#endif
