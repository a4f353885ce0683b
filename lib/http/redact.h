/* SPDX-License-Identifier: Apache-2.0 */
/* The one rule for keeping credentials out of what the tools write. */
#ifndef AIPERF_REDACT_H
#define AIPERF_REDACT_H

#include <stddef.h>
#include "buf.h"

struct json;
struct jw;

/*
 * What is secret (man 7 aiperf, Secrets), all case-insensitive:
 *  - a header whose name contains auth, key, token, secret, passw, cookie,
 *    credential or signature (Authorization, Proxy-Authorization, Cookie,
 *    X-Api-Key, api_key, X-Auth-User, X-Amz-Security-Token, ...);
 *  - a URL's userinfo (user:password@ before the host);
 *  - a URL query parameter named, ignoring '-' and '_', one of key,
 *    apikey, xapikey, token, apitoken, accesstoken, authtoken, bearertoken,
 *    idtoken, refreshtoken, secret, clientsecret, password, passwd, auth,
 *    credential, accesskeyid, awsaccesskeyid, sig, signature,
 *    xamzsignature, xamzcredential, xamzsecuritytoken, xgoogsignature,
 *    xgoogcredential (token_count or monkey are not);
 *  - the value of a command-line option named like a key (--api-key,
 *    *api_key*, *-token, authorization, password, secret; not *-file,
 *    which names a file).
 * A secret becomes REDACT_MARK, the original aiperf's text: its userinfo
 * as "scheme://<redacted>@host", a header as "Name: <redacted>".
 *
 * The redact_* writers append to a caller-owned buffer and return the
 * number of secrets they replaced (0: the text went out unchanged), or -1
 * when the buffer's cap was reached (what was appended stays). They
 * allocate nothing the caller must free.
 */
#define REDACT_MARK "<redacted>"

/* 1 when a header called name[0..n) carries a credential, else 0. */
int redact_header_name(const char *name, size_t n);
/* 1 when a URL query parameter called name[0..n) carries one. */
int redact_param_name(const char *name, size_t n);
/* 1 when a command-line option or config key (no leading dashes) holds one. */
int redact_option_name(const char *name, size_t n);

/* A URL, with or without a scheme ("user:pw@host:8000/v1" too). */
int redact_url(struct buf *b, const char *url, size_t n);
/* One "Name: value" header line; a secret one as "Name: <redacted>". */
int redact_header(struct buf *b, const char *line, size_t n);
/*
 * A command line as the wrapper writes it (words separated by spaces,
 * quoted as sh does): the values of secret options and secret -H headers,
 * the userinfo and secret parameters of URLs. Redacted words are written
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
 * key's string value (api_key), "headers" as an object or as [name, value]
 * pairs or "Name: value" strings, "cli_command" through redact_cli(), and
 * every string holding "://" through redact_url(). Returns the count.
 */
int redact_json(struct jw *w, const struct json *v);

#endif
