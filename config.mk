# Build configuration: override on the command line (make CC=clang PREFIX=/opt/aiperf).
VERSION = 0.1.0
PREFIX  = /usr/local
BINDIR  = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/aiperf
MANPREFIX = $(PREFIX)/share/man
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions

CC      ?= cc
OPT     ?= -O2 -g
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -DAIPERF_VERSION='"$(VERSION)"' \
	-DAIPERF_DATADIR='"$(DATADIR)"' -Ilib
CWARN   = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wold-style-definition -Wpointer-arith \
	-Wwrite-strings -Wvla -Wformat=2 -Wundef -Wcast-align -fno-common
CFLAGS  += -std=c17 $(OPT) $(CWARN)
PKGS    = libcurl libzstd oniguruma libutf8proc libcrypto gsl libpng libjpeg liburing
LDLIBS  += -ljq $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lcurl -lzstd -lonig -lutf8proc -lcrypto -lgsl -lgslcblas -lpng16 -ljpeg -luring) -lmp3lame -lm -lpthread
