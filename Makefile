# aiperf: the only build file. Targets: all check test lint fuzz demo install clean.
include config.mk

ifdef DEVELOPER
CFLAGS += -Werror
endif
ifdef SANITIZE
CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
OPT = -O1 -g
endif
ifdef COVERAGE
CFLAGS += --coverage
LDFLAGS += --coverage
endif

ifeq ($(V),1)
Q =
else
Q = @
endif

LIB_SRC  = $(sort $(wildcard lib/*.c lib/*/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=build/%.o)
# C tools are folders cmd/aiperf-X/ with a main.c; shell commands are files cmd/X.sh,
# installed as bin/X (aiperf, the dispatcher, and aiperf-profile etc.).
TOOLS    = $(sort $(patsubst cmd/%/main.c,%,$(wildcard cmd/aiperf-*/main.c)))
# genai-perf(1)'s mapper, named for the command it serves
TOOLS   += genai-perf-map
SCRIPTS  = $(sort $(wildcard cmd/*.sh))
BINS     = $(TOOLS:%=bin/%) $(SCRIPTS:cmd/%.sh=bin/%)
UNIT_SRC = $(sort $(wildcard tests/unit/test-*.c))
UNITS    = $(UNIT_SRC:tests/unit/%.c=build/tests/%)
FUZZ_SRC = $(sort $(wildcard tests/fuzz/fuzz-*.c))
MANS     = $(sort $(wildcard man/*.[157]))
# Tools whose options come from a lib/opt table print their completion.
COMP_TOOLS = $(patsubst cmd/%/main.c,%,$(shell grep -l '^\#include "opt.h"' cmd/*/main.c))
COMPS    = $(COMP_TOOLS:%=build/completion/%)

all: $(BINS) completion

# Missing Debian packages are installed once (as root) before the first build.
build/.deps: scripts/install-deps.sh
	@mkdir -p build
	@sh scripts/install-deps.sh
	@touch $@

build/%.o: %.c | build/.deps
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

build/libaiperf.a: $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

# Each tool is cmd/<tool>/*.c linked against the library.
define tool_rule
$(1)_OBJ = $$(patsubst %.c,build/%.o,$$(sort $$(wildcard cmd/$(1)/*.c)))
bin/$(1): $$($(1)_OBJ) build/libaiperf.a
	@mkdir -p bin
	@$$(if $$(Q),echo "  LD      $$@")
	$$(Q)$$(CC) $$(LDFLAGS) -o $$@ $$($(1)_OBJ) build/libaiperf.a $$(LDLIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))
# aiperf-ui alone draws with ncurses (the dashboard).
bin/aiperf-ui: LDLIBS += $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
# aiperf-plot alone reads YAML (--config), as do its config parser's tests.
YAML_LIBS = $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)
bin/aiperf-plot build/tests/test-plotcfg build/fuzz/fuzz-plotcfg: LDLIBS += $(YAML_LIBS)
bin/genai-perf-map build/tests/test-gapmap build/fuzz/fuzz-gapmap: LDLIBS += $(YAML_LIBS)
# The YAML config file (lib/cfg): aiperf profile --config and aiperf config.
bin/aiperf-plan bin/aiperf-config build/tests/test-cfgyaml build/tests/test-cfgload build/fuzz/fuzz-cfgload: LDLIBS += $(YAML_LIBS)
build/tests/test-gapmap: $(wildcard cmd/genai-perf-map/*.[ch])

# @DATADIR@ and @VERSION@ are filled in as git fills its *.sh scripts.
bin/%: cmd/%.sh config.mk
	@mkdir -p bin
	$(Q)sed -e 's|@DATADIR@|$(DATADIR)|g' -e 's|@VERSION@|$(VERSION)|g' $< >$@.tmp && \
		chmod +x $@.tmp && mv $@.tmp $@

build/completion/%: bin/%
	@mkdir -p $(@D)
	$(Q)$< --completion bash >$@.tmp && mv $@.tmp $@

build/completion/aiperf.bash: $(COMPS)
	$(Q)cat $(COMPS) >$@

completion: build/completion/aiperf.bash

build/tests/%: tests/unit/%.c build/libaiperf.a tests/test.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(LDFLAGS) -o $@ $< build/libaiperf.a $(LDLIBS)

# Unit tests that #include a tool's sources (or a test header) are rebuilt when those change.
build/tests/test-phase: $(wildcard cmd/aiperf-supervise/phase.[ch])
build/tests/test-fastresp: $(wildcard cmd/aiperf-metrics/*.[ch])
build/tests/test-fastrec: tests/fastrec-same.h
build/tests/test-cpusample: $(wildcard cmd/aiperf-supervise/cpu.[ch])
build/tests/test-search: $(wildcard cmd/aiperf-search/*.[ch])
build/tests/test-speedreport: $(wildcard cmd/aiperf-speed-bench-report/*.[ch])
build/tests/test-genmodels: cmd/aiperf-gen/models.c cmd/aiperf-gen/gen.h
build/tests/test-evalbench2: $(wildcard cmd/aiperf-evalset/*.[ch])

# A stand-in libnvidia-ml for the aiperf-scrape --nvml tests.
build/tests/libnvml-stub.so: tests/nvml/stub.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -fPIC -shared -o $@ $<
# ... and one of a driver older than GPM and JPEG utilization.
build/tests/libnvml-stub-old.so: tests/nvml/stub.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -DSTUB_OLD_DRIVER -fPIC -shared -o $@ $<

units: $(UNITS) build/tests/libnvml-stub.so build/tests/libnvml-stub-old.so

test: all units
	@sh tests/run.sh

# check = every test plus lint (counted as one test in the summary).
check: all units build/.deps
	@sh tests/run.sh unit golden cli lint

# aiperf(7)'s list of aiperf profile's options, from the options table.
man-options: bin/aiperf-plan
	$(Q)sh scripts/man-options.sh

lint:
	mandoc -Tlint -Wwarning $(MANS)
	shellcheck -x $(SCRIPTS) completion/aiperf.bash tests/*.sh tests/cli/*.sh tests/golden/*.sh tests/golden/*/*.sh bench/*.sh scripts/*.sh .ci/run
	cppcheck --std=c11 --enable=warning,performance,portability --error-exitcode=1 \
		--inline-suppr -q -Ilib lib cmd

, := ,
FUZZ_CC = clang
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined
FUZZTIME ?= 10
# A target for a tool's private parser names the tool: it is built with the
# tool's files (their main renamed) and die()/die_usage() wrapped, so that a
# rejected input returns to the target (tests/fuzz/fuzztool.h).
FUZZ_TOOL_fuzz-genemit = aiperf-gen
FUZZ_TOOL_fuzz-hfpub = aiperf-gen
FUZZ_TOOL_fuzz-mockrank = aiperf-mock
FUZZ_TOOL_fuzz-sendrec = aiperf-send
FUZZ_TOOL_fuzz-seqdist = aiperf-gen
FUZZ_TOOL_fuzz-traceconv = aiperf-trace
FUZZ_TOOL_fuzz-weights = aiperf-gen
# A target that #includes a stage's .c (fuzz-export: cmd/aiperf-export/table.c)
# is rebuilt when that file changes: its dependencies go to build/fuzz/T.d
# (one source only; a FUZZ_TOOL target lists its stage's sources itself).
fuzz_deps = $(if $(FUZZ_TOOL_$(1)),,-MMD -MP -MF build/fuzz/$(1).d)
fuzz_tool_src = $(if $(FUZZ_TOOL_$(1)),$(wildcard cmd/$(FUZZ_TOOL_$(1))/*.c))
FUZZ_TOOL_LDFLAGS = -Wl,--wrap=die,--wrap=die_usage,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
fuzz_tool_flags = $(if $(FUZZ_TOOL_$(1)),-Icmd/$(FUZZ_TOOL_$(1)) \
	-Dmain=fuzz_tool_main $(FUZZ_TOOL_LDFLAGS))

# The library is compiled once for every target (instrumented, not linked
# with libFuzzer's main) into an archive each target links.
FUZZ_LIB = build/fuzz/libaiperf-fuzz.a
FUZZ_LIB_OBJ = $(LIB_SRC:%.c=build/fuzz/obj/%.o)
build/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) -std=c17 $(subst fuzzer$(,),fuzzer-no-link$(,),$(FUZZ_FLAGS)) \
		-MMD -MP -c -o $@ $<
$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $(FUZZ_LIB_OBJ)

.SECONDEXPANSION:
build/fuzz/%: tests/fuzz/%.c $(FUZZ_LIB) $$(call fuzz_tool_src,$$*) tests/fuzz/fuzztool.h
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(CPPFLAGS) -std=c17 $(FUZZ_FLAGS) $(call fuzz_tool_flags,$*) \
		$(call fuzz_deps,$*) -o $@ $< $(call fuzz_tool_src,$*) $(FUZZ_LIB) $(LDLIBS)

fuzz-build: $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)

# Replays each committed corpus, then fuzzes each target for FUZZTIME seconds.
# PATH: the targets that run a jq program find aiperf-jqrun in bin/;
# tests/fuzz/lsan.supp: libjq's own leaks.
fuzz: fuzz-build all
	@PATH="$(CURDIR)/bin:$$PATH"; \
	LSAN_OPTIONS="suppressions=$(CURDIR)/tests/fuzz/lsan.supp$${LSAN_OPTIONS:+:$$LSAN_OPTIONS}"; \
	export LSAN_OPTIONS; \
	for f in $(FUZZ_SRC:tests/fuzz/%.c=%); do \
		mkdir -p tests/fuzz/corpus/$$f build/fuzz/new-$$f; \
		echo "fuzz $$f"; \
		build/fuzz/$$f -timeout=25 -runs=0 tests/fuzz/corpus/$$f >build/fuzz/$$f.log 2>&1 || \
			{ tail -30 build/fuzz/$$f.log; exit 1; }; \
		build/fuzz/$$f -timeout=25 -max_total_time=$(FUZZTIME) build/fuzz/new-$$f tests/fuzz/corpus/$$f \
			>build/fuzz/$$f.log 2>&1 || { tail -30 build/fuzz/$$f.log; exit 1; }; \
		test -c /dev/null || { echo "fuzz $$f: /dev/null is no longer a device"; exit 1; }; \
	done

demo: all
	@sh scripts/demo.sh

deps:
	@sh scripts/install-deps.sh && mkdir -p build && touch build/.deps

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANPREFIX)/man1 \
		$(DESTDIR)$(MANPREFIX)/man5 $(DESTDIR)$(MANPREFIX)/man7 $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	cp -R data/. $(DESTDIR)$(DATADIR)
	install -m 644 completion/aiperf.bash $(DESTDIR)$(COMPLETIONDIR)/aiperf
	for m in $(MANS); do s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANPREFIX)/man$$s; done
	install -m 644 $(COMPS) $(DESTDIR)$(COMPLETIONDIR)

clean:
	rm -rf build bin

.PHONY: all units test check lint fuzz fuzz-build demo deps install clean completion man-options
-include $(shell find build -name '*.d' 2>/dev/null)
