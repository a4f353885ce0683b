/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/redact: headers, URLs, command lines and configs. */
#include "http/redact.h"
#include "test.h"

#include "json/json.h"

static struct buf out = BUF_INIT(BUF_NOMAX);
static int got_n;

static const char *
url(const char *s)
{
	buf_reset(&out);
	got_n = redact_url(&out, s, strlen(s));
	return buf_str(&out);
}

static const char *
cli(const char *s)
{
	buf_reset(&out);
	got_n = redact_cli(&out, s, strlen(s));
	return buf_str(&out);
}

static const char *
hdr(const char *s)
{
	buf_reset(&out);
	got_n = redact_header(&out, s, strlen(s));
	return buf_str(&out);
}

static const char *
cfg(const char *s)
{
	struct json_doc *d = json_doc_new();
	char err[64];
	struct json *v = json_parse(d, s, strlen(s), err, sizeof(err));
	struct jw w;

	buf_reset(&out);
	jw_init(&w, &out, 0);
	got_n = v ? redact_json(&w, v) : -1;
	json_doc_free(d);
	return buf_str(&out);
}

/* One rule: the header, parameter and option names of the old three
 * rules all go through redact_name(). */
#define H(s) redact_name(s, strlen(s))
#define P(s) redact_name(s, strlen(s))
#define O(s) redact_name(s, strlen(s))
#define X(s) redact_name(s, strlen(s))

static const char *
extra(const char *s)
{
	buf_reset(&out);
	got_n = redact_extra(&out, s, strlen(s));
	return buf_str(&out);
}

static void
names(void)
{
	TEST("header: Authorization, any case", H("Authorization") && H("authorization"));
	TEST("header: Proxy-Authorization, Cookie, Set-Cookie",
	     H("Proxy-Authorization") && H("Cookie") && H("Set-Cookie"));
	TEST("header: X-Api-Key, api-key, apikey, api_key",
	     H("X-Api-Key") && H("api-key") && H("apikey") && H("api_key"));
	TEST("header: X-Auth, X-Auth-Token, Password, X-Api-Token, X-Client-Secret",
	     H("X-Auth") && H("X-Auth-Token") && H("Password") && H("X-Api-Token") &&
	     H("X-Client-Secret"));
	TEST("header: cloud keys", H("Ocp-Apim-Subscription-Key") && H("x-goog-api-key") &&
	     H("X-Amz-Security-Token"));
	TEST("header: ordinary names are kept", !H("Content-Type") && !H("Accept") &&
	     !H("User-Agent") && !H("X-Request-ID") && !H("X-Correlation-ID") &&
	     !H("Keep-Alive") && !H("X-Custom"));
	TEST("param: key, api_key, apiKey, API-KEY, token, sig, X-Amz-Signature",
	     P("key") && P("api_key") && P("apiKey") && P("API-KEY") && P("token") &&
	     P("sig") && P("X-Amz-Signature") && P("X-Amz-Credential") &&
	     P("access_token") && P("password") && P("secret") && P("auth"));
	TEST("param: token_count, monkey, keys, api-version are kept",
	     !P("token_count") && !P("monkey") && !P("keys") && !P("api-version") &&
	     !P("model") && !P(""));
	TEST("option: --api-key, api_key, --auth-token, password",
	     O("--api-key") && O("api_key") && O("--auth-token") && O("password"));
	TEST("option: --api-key-file, --tokenizer, --isl, tokens-mean are kept",
	     !O("--api-key-file") && !O("--tokenizer") && !O("--isl") &&
	     !O("--synthetic-input-tokens-mean") && !O("url"));
	TEST("option: --password-file names a file, --hf-token is one",
	     !O("--password-file") && !O("--secret_file") && O("--hf-token"));
	TEST("extra keys: api_key, password, client_secret, apiKey, hf_token",
	     X("api_key") && X("password") && X("client_secret") && X("apiKey") &&
	     X("hf_token") && X("access_key_id") && X("AWSAccessKeyId") &&
	     X("private_key") && X("db_passwd") && X("userPassword") && X("api_key_2"));
	TEST("extra keys: max_tokens, min_tokens, top_k, stop_token_ids are kept",
	     !X("max_tokens") && !X("min_tokens") && !X("top_k") &&
	     !X("stop_token_ids") && !X("skip_special_tokens") && !X("ignore_eos") &&
	     !X("max_completion_tokens") && !X("temperature") && !X("nvext") &&
	     !X("keyword") && !X("authority") && !X("tokens") && !X("-_-"));
	TEST("one rule: X-Monkey and X-Token-Count are no header secrets now",
	     !H("X-Monkey") && !H("X-Token-Count") && H("X-Auth-User") && H("Cookie2"));
}

static void
extras(void)
{
	TEST_STR("extra k:v: the secret key's value", extra("api_key:sk-1"), "api_key:<redacted>");
	TEST("extra k:v: one secret", got_n == 1);
	TEST_STR("extra k:v items: each secret one",
		 extra("temperature:0.1, password : p,client_secret:c,max_tokens:5"),
		 "temperature:0.1, password :<redacted>,client_secret:<redacted>,max_tokens:5");
	TEST("extra k:v items: two secrets", got_n == 2);
	TEST_STR("extra k:v: kept", extra("max_tokens:5,ignore_eos:true"), "max_tokens:5,ignore_eos:true");
	TEST("extra k:v: kept counts 0", got_n == 0);
	TEST_STR("extra: an item without a colon is kept", extra("x,api_key"), "x,api_key");
	TEST_STR("extra JSON: the secret members, strings and numbers",
		 extra("{\"password\":\"p\",\"pin_secret\":1234,\"temperature\":0.10}"),
		 "{\"password\":\"<redacted>\",\"pin_secret\":\"<redacted>\",\"temperature\":0.10}");
	TEST("extra JSON: two secrets", got_n == 2);
	TEST_STR("extra JSON: inside a secret's object every value",
		 extra("{\"credentials\":{\"user\":\"u\",\"n\":[1,true]},\"k\":\"v\"}"),
		 "{\"credentials\":{\"user\":\"<redacted>\",\"n\":[\"<redacted>\",true]},\"k\":\"v\"}");
	TEST_STR("extra JSON: nested keys by name",
		 extra("{\"nvext\":{\"api_key\":\"k\",\"top_k\":2}}"),
		 "{\"nvext\":{\"api_key\":\"<redacted>\",\"top_k\":2}}");
	TEST_STR("extra JSON without a secret: as typed", extra("{ \"a\": 1 }"), "{ \"a\": 1 }");
	TEST_STR("extra JSON that does not parse: redacted whole",
		 extra("{\"api_key\":\"sk"), "<redacted>");
	TEST_STR("extra: empty", extra(""), "");
}

static void
urls(void)
{
	TEST_STR("url: userinfo", url("http://user:SECRET@host:8000/v1"),
		 "http://<redacted>@host:8000/v1");
	TEST("url: one secret counted", got_n == 1);
	TEST_STR("url: user only", url("https://bob@h/"), "https://<redacted>@h/");
	TEST_STR("url: '@' inside the password",
		 url("http://u:p@ss@host/x"), "http://<redacted>@host/x");
	TEST_STR("url: '@' in the path is no userinfo",
		 url("http://host/users@example.com?email=a@b.c"),
		 "http://host/users@example.com?email=a@b.c");
	TEST("url: unchanged counts 0", got_n == 0);
	TEST_STR("url: no scheme", url("user:pw@localhost:8000"), "<redacted>@localhost:8000");
	TEST_STR("url: query keys", url("http://h/p?api_key=abc&model=m&TOKEN=t#frag"),
		 "http://h/p?api_key=<redacted>&model=m&TOKEN=<redacted>#frag");
	TEST("url: two secrets counted", got_n == 2);
	TEST_STR("url: signed S3 style",
		 url("https://b.s3/o?X-Amz-Credential=AK%2F1&X-Amz-Signature=ff&x=1"),
		 "https://b.s3/o?X-Amz-Credential=<redacted>&X-Amz-Signature=<redacted>&x=1");
	TEST_STR("url: token_count, empty params, bare key",
		 url("http://h/?token_count=3&&key&sig="),
		 "http://h/?token_count=3&&key&sig=<redacted>");
	TEST_STR("url: plain", url("http://127.0.0.1:8000"), "http://127.0.0.1:8000");
	TEST_STR("url: empty", url(""), "");
}

static void
headers(void)
{
	TEST_STR("header line: Authorization", hdr("Authorization: Bearer sk-1"),
		 "Authorization: <redacted>");
	TEST_STR("header line: no space after the colon", hdr("X-Api-Key:k"),
		 "X-Api-Key: <redacted>");
	TEST_STR("header line: kept", hdr("X-Custom: v"), "X-Custom: v");
	TEST("header line: kept counts 0", got_n == 0);
	TEST_STR("header line: no colon", hdr("Authorization Bearer x"),
		 "Authorization: <redacted>");
	TEST_STR("header JSON object: the secret member only",
		 hdr("{\"X-Custom\": \"v\", \"Authorization\": \"Bearer S\"}"),
		 "{\"X-Custom\":\"v\",\"Authorization\":\"<redacted>\"}");
	TEST("header JSON object: one secret", got_n == 1);
	TEST_STR("header JSON object without a secret: as typed",
		 hdr(" {\"X-A\": \"1\"}"), " {\"X-A\": \"1\"}");
	TEST("header JSON object without a secret: counts 0", got_n == 0);
	TEST_STR("header JSON that does not parse: redacted whole",
		 hdr("{\"Authorization\": \"Bearer S\""), "<redacted>");
	TEST_STR("header JSON array: redacted whole", hdr("{]"), "<redacted>");
	TEST_STR("header pairs: each secret one",
		 hdr("X-C:v,X-Api-Key:S,Cookie: c=1"),
		 "X-C:v,X-Api-Key: <redacted>,Cookie: <redacted>");
	TEST("header pairs: two secrets", got_n == 2);
	TEST_STR("a value with commas is one header",
		 hdr("Authorization: Bearer a, b"), "Authorization: <redacted>");
	TEST_STR("not all pairs: one header", hdr("Accept: a, b"), "Accept: a, b");
}

static void
argvs(void)
{
	const char *a[] = { "aiperf-send", "--api-key", "sk-1", "-H", "X-Auth: t", "-u",
		      "http://u:pw@h:8000", "it's", NULL };
	const char *e[] = { "aiperf-export", "--cli-command",
		      "aiperf profile --api-key sk-2 -H 'Cookie: c'", NULL };

	buf_reset(&out);
	got_n = redact_argv(&out, 8, a);
	TEST_STR("argv: quoted, each secret redacted", buf_str(&out),
		 "aiperf-send --api-key '<redacted>' -H 'X-Auth: <redacted>' "
		 "-u 'http://<redacted>@h:8000' 'it'\\''s'");
	TEST("argv: three secrets", got_n == 3);
	buf_reset(&out);
	redact_argv(&out, 3, e);
	TEST("argv: a word that is a command line has its own secrets redacted",
	     !strstr(buf_str(&out), "sk-2") && !strstr(buf_str(&out), "Cookie: c") &&
	     strstr(buf_str(&out), "--cli-command"));
}

static void
clis(void)
{
	TEST_STR("cli: --api-key", cli("aiperf profile --model m --api-key sk-123 --streaming"),
		 "aiperf profile --model m --api-key '<redacted>' --streaming");
	TEST_STR("cli: --api-key=", cli("aiperf profile --api-key=sk-123"),
		 "aiperf profile '--api-key=<redacted>'");
	TEST_STR("cli: a key that starts with a dash", cli("x --api-key -abc --y"),
		 "x --api-key '<redacted>' --y");
	TEST_STR("cli: quoted secret header",
		 cli("aiperf profile --header 'Authorization: Bearer a b' -H 'X-Custom: v'"),
		 "aiperf profile --header 'Authorization: <redacted>' -H 'X-Custom: v'");
	TEST_STR("cli: double-quoted header", cli("a -H \"X-Api-Key:k\\\"q\""),
		 "a -H 'X-Api-Key: <redacted>'");
	TEST_STR("cli: --url userinfo", cli("a --url 'http://user:SECRET@host' --isl 3"),
		 "a --url 'http://<redacted>@host' --isl 3");
	TEST_STR("cli: -u takes several URLs", cli("a -u u:p@h1 v:q@h2 --x y:z@w"),
		 "a -u '<redacted>@h1' '<redacted>@h2' --x y:z@w");
	TEST_STR("cli: a URL anywhere", cli("a --otel 'http://h/?token=t'"),
		 "a --otel 'http://h/?token=<redacted>'");
	TEST_STR("cli: --api-key-file keeps its path",
		 cli("a --api-key-file /run/key --tokenizer t"),
		 "a --api-key-file /run/key --tokenizer t");
	TEST_STR("cli: quotes inside a redacted URL",
		 cli("a --url \"http://o'k:pw@h/?x='1'\""), "a --url 'http://<redacted>@h/?x='\\''1'\\'''");
	TEST_STR("cli: spacing kept", cli("  a   --model  'm x'  "), "  a   --model  'm x'  ");
	TEST_STR("cli: unterminated quote", cli("a --api-key 'abc"), "a --api-key '<redacted>'");
	TEST_STR("cli: a trailing secret option", cli("a --api-key"), "a --api-key");
	TEST_STR("cli: --extra-inputs k:v", cli("a --extra-inputs api_key:SEK --extra-inputs max_tokens:4"),
		 "a --extra-inputs 'api_key:<redacted>' --extra-inputs max_tokens:4");
	TEST_STR("cli: --extra-inputs JSON",
		 cli("a --extra-inputs '{\"password\":\"SEK\",\"top_k\":1}' --isl 3"),
		 "a --extra-inputs '{\"password\":\"<redacted>\",\"top_k\":1}' --isl 3");
	TEST_STR("cli: --extra-inputs=", cli("a --extra-inputs=client_secret:SEK"),
		 "a '--extra-inputs=client_secret:<redacted>'");
	TEST_STR("cli: an extra input that starts with a dash is its value",
		 cli("a --extra-inputs -x:1,token:SEK --y"), "a --extra-inputs '-x:1,token:<redacted>' --y");
	TEST_STR("cli: --server-metrics and --gpu-telemetry take URLs without a scheme",
		 cli("a --server-metrics h:9?token=S u:p@h2 --gpu-telemetry dashboard h:1?sig=S --isl 3"),
		 "a --server-metrics 'h:9?token=<redacted>' '<redacted>@h2' --gpu-telemetry "
		 "dashboard 'h:1?sig=<redacted>' --isl 3");
	TEST_STR("cli: --url-strategy is no URL option", cli("a --url-strategy u:p@h"),
		 "a --url-strategy u:p@h");
	TEST_STR("cli: --url query string", cli("a --url 'http://h:1/v1?api_key=SEK&x=1'"),
		 "a --url 'http://h:1/v1?api_key=<redacted>&x=1'");
}

static void
configs(void)
{
	TEST_STR("config: api_key, urls, headers object",
		 cfg("{\"endpoint\":{\"urls\":[\"http://u:p@h\",\"h2\"],\"api_key\":\"sk\","
		     "\"headers\":{\"X-Api-Key\":\"k\",\"X-Ok\":\"v\"},\"n\":1}}"),
		 "{\"endpoint\":{\"urls\":[\"http://<redacted>@h\",\"h2\"],\"api_key\":\"<redacted>\","
		 "\"headers\":{\"X-Api-Key\":\"<redacted>\",\"X-Ok\":\"v\"},\"n\":1}}");
	TEST("config: three secrets counted", got_n == 3);
	TEST_STR("config: header pairs and lines",
		 cfg("{\"headers\":[[\"Authorization\",\"Bearer x\"],[\"A\",\"b\"],\"Cookie: c\"]}"),
		 "{\"headers\":[[\"Authorization\",\"<redacted>\"],[\"A\",\"b\"],\"Cookie: <redacted>\"]}");
	TEST_STR("config: cli_command",
		 cfg("{\"cli_command\":\"aiperf profile --api-key k\",\"api_key\":null}"),
		 "{\"cli_command\":\"aiperf profile --api-key '<redacted>'\",\"api_key\":null}");
	TEST_STR("config: input.extra, both forms",
		 cfg("{\"input\":{\"extra\":[\"api_key:SEKA\",\"{\\\"password\\\":\\\"SEKB\\\"}\","
		     "\"max_tokens:4\"]}}"),
		 "{\"input\":{\"extra\":[\"api_key:<redacted>\",\"{\\\"password\\\":\\\"<redacted>\\\"}\","
		 "\"max_tokens:4\"]}}");
	TEST("config: input.extra, two secrets", got_n == 2);
	TEST_STR("config: gpu_telemetry and *_url strings without a scheme",
		 cfg("{\"gpu_telemetry\":[\"pynvml\",\"h:9400?token=t\"],\"otel_url\":\"u:p@h\"}"),
		 "{\"gpu_telemetry\":[\"pynvml\",\"h:9400?token=<redacted>\"],\"otel_url\":\"<redacted>@h\"}");
	TEST_STR("config: a secret's number, a non-secret's kept",
		 cfg("{\"password\":123,\"max_tokens\":5,\"token\":\"\",\"auth\":null}"),
		 "{\"password\":\"<redacted>\",\"max_tokens\":5,\"token\":\"\",\"auth\":null}");
	TEST_STR("config: other values as they were",
		 cfg("{\"a\":[1,2.50,true,false,null,\"x\"],\"b\":{}}"),
		 "{\"a\":[1,2.50,true,false,null,\"x\"],\"b\":{}}");
}

int
main(void)
{
	names();
	urls();
	headers();
	extras();
	clis();
	argvs();
	configs();
	buf_release(&out);
	return TEST_DONE();
}
