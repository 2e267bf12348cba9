# SPDX-License-Identifier: GPL-2.0
# kmark: the front door. See README.md.
#   make setup                 install packages, fetch the i386 busybox
#   make build [ARCH=i386]     kernel + initramfs for one arch
#   make run   [ARCH=i386] [SCRIPT=file.sh] [KERNEL_ARGS=...] [QEMU_ARGS=...]
#   make demo  [ARCH=i386]     trace context switches for a few seconds
#   make check                 all tests, both arches; ends "N passed, N failed,
#                              N skipped"
#   make bench [QUICK=1]       kmark vs ftrace figures into BENCHMARKS.md
#   make size [ARCH=i386]      what kmark and ftrace add to a tinyconfig vmlinux
#   make patches [OUT=dir]     the git format-patch series in build/patches/
#                              (or dir; a relative one from this folder)
#   make configs               the configuration matrix (KMARK=n, no kprobes,
#                              UP, no modules; WERROR) on both arches
#   make clean
ARCH ?= x86_64
SCRIPT ?=
export KERNEL_ARGS QEMU_ARGS

.PHONY: all setup build run demo check bench size patches configs clean
all: build

setup:
	@scripts/setup.sh

build: setup
	@scripts/build-kernel.sh $(ARCH)
	@scripts/mkinitramfs.sh $(ARCH)

ifeq ($(SCRIPT),)
run: build
	@scripts/boot.sh $(ARCH) run
else
run: build
	@LOG=build/$(ARCH)/run/script.log scripts/boot.sh $(ARCH) script $(SCRIPT); \
	rc=$$?; \
	sed -n '/^KMARK-SCRIPT-BEGIN/,/^KMARK-SCRIPT-EXIT=/p' build/$(ARCH)/run/script.log | \
		sed -e '1d' -e '/^KMARK-SCRIPT-EXIT=/d' | tr -d '\r'; \
	st=$$(sed -n 's/^KMARK-SCRIPT-EXIT=\([0-9]*\).*/\1/p' build/$(ARCH)/run/script.log); \
	if [ -z "$$st" ]; then \
		echo "kmark: the script did not finish (QEMU exit $$rc); console: build/$(ARCH)/run/script.log" >&2; \
		exit 1; \
	fi; \
	[ "$$st" = 0 ] || echo "kmark: the script exited with status $$st" >&2; \
	exit $$st
endif

demo: build
	@LOG=build/$(ARCH)/run/demo.log TIMEOUT=300 scripts/boot.sh $(ARCH) demo; \
	sed -n '/^### kmark demo/,/^### demo done/p' build/$(ARCH)/run/demo.log | tr -d '\r'

check:
	@scripts/check.sh

bench:
	@QUICK=$(QUICK) scripts/bench.sh

size: setup
	@scripts/size.sh $(if $(filter command line,$(origin ARCH)),$(ARCH),i386)

# checkpatch.pl comes from the prepared tree. OUT= only from the command
# line: an OUT of the environment (Android's build sets one) is not ours.
PATCHES_OUT := build/patches
ifeq ($(origin OUT),command line)
PATCHES_OUT := $(OUT)
endif
patches: setup
	@scripts/prepare-tree.sh
	@python3 scripts/mkpatches.py '$(PATCHES_OUT)'

configs: setup
	@scripts/configs.sh

clean:
	rm -rf build
	[ ! -f userspace/Makefile ] || $(MAKE) -C userspace clean
