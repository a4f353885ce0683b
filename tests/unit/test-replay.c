/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for lib/dataset/replay (raw_payload lines, inputs.json, SageMaker Data Capture records). */
#include "test.h"
#include "dataset/replay.h"
#include "util.h"

static char err[512];

static int payload(struct json_doc *d, struct buf *out, const char *s)
{
	err[0] = '\0';
	return replay_payload(d, s, strlen(s), out, err, sizeof(err));
}

static void test_payload(void)
{
	struct json_doc *d = json_doc_new();
	struct buf out = BUF_INIT(1 << 20), again = BUF_INIT(1 << 20);
	const char *ours = "{\"messages\":[{\"role\":\"user\",\"content\":\"a\\nb\\u0001\\\"\"}],"
			   "\"model\":\"m\",\"temperature\":0.70,\"n\":1e3,\"stream\":true}";

	TEST("compact body kept byte for byte", payload(d, &out, ours) == 1 &&
	     out.len == strlen(ours) && !memcmp(out.s, ours, out.len));
	TEST("written again: the same", payload(d, &again, buf_str(&out)) == 1 &&
	     again.len == out.len && !memcmp(again.s, out.s, out.len));
	TEST("spaces and escapes: compact, UTF-8",
	     payload(d, &out, "  { \"messages\" : [ ] , \"x\" : \"caf\\u00e9 \\/\" }\r") == 1);
	TEST_STR("its text", buf_str(&out), "{\"messages\":[],\"x\":\"caf\xc3\xa9 /\"}");
	TEST("duplicate keys kept", payload(d, &out, "{\"messages\":[],\"a\":1,\"a\":2}") == 1 &&
	     !strcmp(buf_str(&out), "{\"messages\":[],\"a\":1,\"a\":2}"));
	TEST("blank line skipped", payload(d, &out, " \t\r") == 0);
	TEST("bad JSON", payload(d, &out, "{\"messages\": [") < 0 &&
	     !strncmp(err, "invalid JSON: ", 14));
	TEST("a list", payload(d, &out, "[1]") < 0);
	TEST_STR("its message", err, "raw_payload line must be a JSON object, got list");
	TEST("no messages", payload(d, &out, "{\"model\":\"x\"}") < 0);
	TEST_STR("its message", err, "raw_payload line missing required 'messages' array (got NoneType)");
	TEST("messages not a list", payload(d, &out, "{\"messages\":\"hi\"}") < 0 &&
	     strstr(err, "(got str)"));
	TEST("a number: int or float", payload(d, &out, "2.5") < 0 && strstr(err, "got float") &&
	     payload(d, &out, "2") < 0 && strstr(err, "got int"));
	TEST("a NUL byte", replay_payload(d, "{\"messages\":[]}\0", 16, &out, err, sizeof(err)) < 0);
	buf_release(&out);
	buf_release(&again);
	json_doc_free(d);
}

static int inputs(struct replay_inputs *ri, const char *s)
{
	err[0] = '\0';
	return replay_inputs_parse(s, strlen(s), ri, err, sizeof(err));
}

static void test_inputs(void)
{
	struct replay_inputs ri;

	TEST("two sessions", inputs(&ri, "{\n  \"data\": [\n    {\"session_id\": \"a\", "
				  "\"payloads\": [{\"messages\": [], \"k\": 1.50}, {}]},\n"
				  "    {\"session_id\": \"b\", \"payloads\": [], \"x\": 1}\n  ],"
				  " \"other\": true\n}") == 0 && ri.n == 2);
	TEST("their turns", ri.v[0].n == 2 && ri.v[1].n == 0 && !strcmp(ri.v[0].id, "a"));
	TEST_STR("payload compact", ri.v[0].payloads[0], "{\"messages\":[],\"k\":1.50}");
	TEST("its length", ri.v[0].lens[0] == strlen(ri.v[0].payloads[0]));
	TEST_STR("empty object", ri.v[0].payloads[1], "{}");
	replay_inputs_release(&ri);
	TEST("empty data", inputs(&ri, "{\"data\":[]}") == 0 && ri.n == 0);
	replay_inputs_release(&ri);
	TEST("duplicate session id", inputs(&ri, "{\"data\":[{\"session_id\":\"x\",\"payloads\":[]},"
				  "{\"session_id\":\"y\",\"payloads\":[]},{\"session_id\":\"y\",\"payloads\":[]},"
				  "{\"session_id\":\"x\",\"payloads\":[]}]}") < 0 && ri.n == 0 && !ri.v);
	TEST_STR("its message (the first repeat)", err, "data[2] duplicate session_id 'y' "
		 "(already declared earlier in the file); each session_id must be unique");
	TEST("not JSON", inputs(&ri, "{\"data\":[") < 0 && !strncmp(err, "invalid JSON", 12));
	TEST("a list", inputs(&ri, "[]") < 0 && strstr(err, "got list"));
	TEST("no data", inputs(&ri, "{\"Data\":[]}") < 0 && strstr(err, "got NoneType"));
	TEST("entry not an object", inputs(&ri, "{\"data\":[1]}") < 0);
	TEST_STR("its message", err, "data[0]: expected an object, got int");
	TEST("no session id", inputs(&ri, "{\"data\":[{\"payloads\":[]}]}") < 0);
	TEST_STR("its message", err, "data[0]: session_id: expected a string, got NoneType");
	TEST("session id a number", inputs(&ri, "{\"data\":[{\"session_id\":1,\"payloads\":[]}]}") < 0 &&
	     strstr(err, "got int"));
	TEST("no payloads", inputs(&ri, "{\"data\":[{\"session_id\":\"a\"}]}") < 0);
	TEST_STR("its message", err, "data[0]: payloads: expected a list, got NoneType");
	TEST("payload not an object", inputs(&ri, "{\"data\":[{\"session_id\":\"a\",\"payloads\":[{},\"s\"]}]}") < 0);
	TEST_STR("its message", err, "data[0]: payloads[1]: expected an object, got str");
	TEST("a later bad entry frees the first", inputs(&ri, "{\"data\":[{\"session_id\":\"a\","
				  "\"payloads\":[{}]},{\"session_id\":null,\"payloads\":[]}]}") < 0 &&
	     ri.n == 0 && !ri.v);
}

static int capture(struct json_doc *d, struct replay_capture *c, const char *s)
{
	err[0] = '\0';
	return replay_capture_parse(d, s, strlen(s), c, err, sizeof(err));
}

#define IN(data, enc) "{\"captureData\":{\"endpointInput\":{\"data\":" data enc "}"
#define META(t) "\"eventMetadata\":{\"eventId\":\"ev1\",\"inferenceTime\":\"" t "\"}}"

static void test_capture(void)
{
	struct json_doc *d = json_doc_new();
	struct replay_capture c = { .messages = NULL };

	replay_capture_release(&c);
	TEST("JSON capture", capture(d, &c, IN("\"{\\\"messages\\\":[{\\\"role\\\":\\\"user\\\","
					   "\\\"content\\\":\\\"hi\\\"}],\\\"max_tokens\\\":50}\"",
					   ",\"encoding\":\"JSON\"")
				 ",\"endpointOutput\":{\"data\":\"{\\\"usage\\\":{\\\"prompt_tokens\\\":12}}\","
				 "\"encoding\":\"JSON\"}}," META("2026-04-29T00:03:18Z")) == 1);
	TEST_STR("messages", c.messages, "[{\"role\":\"user\",\"content\":\"hi\"}]");
	TEST("fields", c.max_tokens == 50 && c.input_length == 12 && !c.tools &&
	     c.ts_ms == 1777420998000.0 && !strcmp(c.event_id, "ev1"));
	/* {"messages":[{"role":"user","content":"x"}],"max_completion_tokens":7,"tools":[{}]} */
	TEST("BASE64 (the default encoding), no output", capture(d, &c,
	     IN("\"eyJtZXNzYWdlcyI6W3sicm9sZSI6InVzZXIiLCJjb250ZW50IjoieCJ9XSwibWF4X2NvbXBs\\n"
		"ZXRpb25fdG9rZW5zIjo3LCJ0b29scyI6W3t9XX0=\"", "") "}," META("2026-04-29T01:03:18.5+01:00")) == 1);
	TEST("its fields", c.max_tokens == 7 && c.input_length == -1 && c.tools &&
	     !strcmp(c.tools, "[{}]") && c.ts_ms == 1777420998500.0);
	TEST("blank", capture(d, &c, "  ") == 0 && !c.messages);
	TEST("no inferenceTime", capture(d, &c, IN("\"{}\"", "") "},\"eventMetadata\":{\"eventId\":\"e\"}}") < 0);
	TEST_STR("its message", err, "Capture record e missing required field: 'inferenceTime'");
	TEST("no eventMetadata", capture(d, &c, "{\"captureData\":{}}") < 0);
	TEST_STR("its message", err, "Capture record <unknown> missing required field: 'eventMetadata'");
	TEST("no endpointInput", capture(d, &c, "{\"captureData\":{}," META("2026-01-01")) < 0);
	TEST_STR("its message", err, "Capture record ev1 missing captureData.endpointInput: 'endpointInput'");
	TEST("no messages", capture(d, &c, IN("\"{\\\"prompt\\\":\\\"x\\\"}\"", ",\"encoding\":\"JSON\"")
				 "}," META("2026-01-01T00:00:00")) < 0);
	TEST_STR("its message", err, "Capture record ev1 has no 'messages' key in payload. "
		 "Only OpenAI-compatible chat endpoints are supported.");
	TEST("CSV encoding: no payload", capture(d, &c, IN("\"a,b\"", ",\"encoding\":\"CSV\"") "},"
						 META("2026-01-01")) < 0 && strstr(err, "no 'messages'"));
	TEST("bad base64", capture(d, &c, IN("\"e30*\"", "") "}," META("2026-01-01")) < 0 &&
	     strstr(err, "invalid base64"));
	TEST("bad inner JSON", capture(d, &c, IN("\"{\"", ",\"encoding\":\"JSON\"") "},"
					     META("2026-01-01")) < 0 && strstr(err, "invalid JSON"));
	TEST("messages not objects", capture(d, &c, IN("\"{\\\"messages\\\":[1]}\"", ",\"encoding\":\"JSON\"")
				     "}," META("2026-01-01")) < 0 && strstr(err, "malformed"));
	TEST("bad max_tokens", capture(d, &c, IN("\"{\\\"messages\\\":[],\\\"max_tokens\\\":-1}\"",
					     ",\"encoding\":\"JSON\"") "}," META("2026-01-01")) < 0 &&
	     strstr(err, "max_tokens"));
	TEST("bad time", capture(d, &c, IN("\"{\\\"messages\\\":[]}\"", ",\"encoding\":\"JSON\"") "},"
				 META("2026-02-30T00:00:00Z")) < 0 && strstr(err, "ISO 8601"));
	TEST("data not a string", capture(d, &c, IN("{}", ",\"encoding\":\"JSON\"") "},"
						    META("2026-01-01")) < 0 && strstr(err, "expected a string"));
	TEST("not an object", capture(d, &c, "[]") < 0 && strstr(err, "got list"));
	TEST("not JSON", capture(d, &c, "{") < 0 && strstr(err, "Invalid JSON in capture record"));
	replay_capture_release(&c);
	json_doc_free(d);
}

static int iso(const char *s, double *ms)
{
	return replay_iso_ms(s, strlen(s), ms);
}

static void test_iso(void)
{
	double ms = 0;

	TEST("epoch", iso("1970-01-01T00:00:00Z", &ms) == 0 && ms == 0);
	TEST("date alone", iso("2000-03-01", &ms) == 0 && ms == 951868800000.0);
	TEST("leap day", iso("2024-02-29T12:00", &ms) == 0 && ms == 1709208000000.0);
	TEST("offset west", iso("1970-01-01T00:00:00-01:30", &ms) == 0 && ms == 5400000.0);
	TEST("offset without colon", iso("1970-01-01T01:00:00+0100", &ms) == 0 && ms == 0);
	TEST("microseconds", iso("1970-01-01 00:00:01.000250", &ms) == 0 &&
	     ms > 1000.24 && ms < 1000.26);
	TEST("before the epoch", iso("1969-12-31T23:59:59Z", &ms) == 0 && ms == -1000.0);
	TEST("not a leap day", iso("2023-02-29", &ms) < 0);
	TEST("hour 24", iso("2023-01-01T24:00:00", &ms) < 0);
	TEST("junk after", iso("2023-01-01T00:00:00Zx", &ms) < 0);
	TEST("short year", iso("223-01-01", &ms) < 0);
	TEST("empty", iso("", &ms) < 0);
	TEST("bad offset", iso("2023-01-01T00:00:00+25:00", &ms) < 0);
}

int main(void)
{
	test_payload();
	test_inputs();
	test_capture();
	test_iso();
	return TEST_DONE();
}
