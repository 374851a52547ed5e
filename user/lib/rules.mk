# user/lib - the C library (libc.a): POSIX calls over the generated
# int 0x80 stubs, stdio, malloc, threads (clone + CLONE_SETTLS, per-thread
# errno) and glibc-style SIGEV_THREAD timers.  It compiles the kernel's own
# kernel/lib/string.c and kernel/lib/vsprintf.c with the user flags instead
# of keeping copies.
USER_LIB_OBJS := $(addprefix $(BUILD)/user/lib/,\
	errno.o tls.o unistd.o time.o signal.o stdio.o string.o stdlib.o \
	getopt.o malloc.o thread.o timer.o kstring.o kvsprintf.o syscalls.o vdso.o)
USER_LIB := $(BUILD)/user/libc.a
USER_OBJS += $(filter-out $(BUILD)/user/lib/syscalls.o,$(USER_LIB_OBJS))

$(BUILD)/user/lib/k%.o: kernel/lib/%.c | $(USER_GEN)
	@mkdir -p $(dir $@)
	@echo "  UCC     $<"
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

# Assembled in its own directory: the object's file symbol, which every
# program's symbol table keeps, is then "user_syscalls.asm" whatever BUILD
# is, so the initrd's bytes do not depend on where the build lives.
$(BUILD)/user/lib/syscalls.o: $(BUILD)/gen/user_syscalls.asm user/lib/rules.mk
	@mkdir -p $(dir $@)
	@echo "  UNASM   $<"
	$(Q)cd $(dir $<) && $(NASM) -f elf32 $(notdir $<) -o $(abspath $@)

$(USER_LIB): $(USER_LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@
	$(Q)ar rcsD $@ $(USER_LIB_OBJS)
