# user/tests - programs that test the kernel from inside the image:
# usertests (the runner usertests.c + the ut_*.c tables, helpers in ut.h),
# timertest (signals, POSIX timers, sleeps), ulibtest (the C library),
# fuzz (random system calls) and frames (the free frame count).
UT := $(BUILD)/user/tests
$(eval $(call user_prog,usertests,$(addprefix $(UT)/,usertests.o ut_mem.o ut_proc.o \
	ut_thread.o ut_sig.o ut_tls.o ut_life.o ut_limits.o ut_abi.o ut_fs.o \
	ut_sched.o ut_rt.o ut_rt_smp.o ut_poll.o ut_job.o ut_vdso.o ut_pipe.o ut_tmpfs.o ut_procfs.o ut_entry.o \
	ut_hostile.o ut_hostile_proc.o ut_hostile_sig.o ut_dyn.o ut_cmds.o ut_itimer.o \
	ut_futex_pi.o ut_mm.o ut_maps.o ut_acct.o ut_rlimit.o)))
$(eval $(call user_prog,timertest,$(UT)/timertest.o))
$(eval $(call user_prog,ulibtest,$(UT)/ulibtest.o))

# "notelf" is a shell script, for usertests' execve -> ENOEXEC test.
INITRD_DATA      += user/tests/notelf.txt
INITRD_DATA_ARGS += bin/notelf=user/tests/notelf.txt
# Links for usertests' exec_paths: one to a program, a loop, a dangling one.
INITRD_DATA_ARGS += bin/ut-link->../bin/usertests bin/ut-loop->ut-loop bin/ut-dangling->nosuch

# fuzz: the random system-call fuzzer (driver fuzz.c, generator fuzz_gen.c);
# docs/ROBUSTNESS.md.
$(eval $(call user_prog,fuzz,$(UT)/fuzz.o $(UT)/fuzz_gen.o))
# frames: prints the free frame count (tools/soak's leak check).
$(eval $(call user_prog,frames,$(UT)/frames.o))
# smpstress: threads mapping, unmapping, passing a futex and forking (the SMP soak).
$(eval $(call user_prog,smpstress,$(UT)/smpstress.o))

# Programs of unusual layout for the loader tests (usertests exec_shared_page,
# exec_big_bss, exec_interp_exec; ut_mm.c): code and data on one page, a bss
# larger than memory, an ET_EXEC interpreter with a PT_INTERP of its own.
# Fixtures, not programs a user runs (no --help): built into
# build/user/fixtures/ and put into the initrd as bin/NAME, like notelf.
UT_FIX := $(BUILD)/user/fixtures
# $(call ut_fixture,NAME,OBJECTS,SCRIPT,LDFLAGS,LIBS): NAME linked with SCRIPT
# instead of user/user.ld, with LIBS (crt0 and the C library, or nothing).
define ut_fixture
USER_OBJS        += $(2)
INITRD_DATA      += $(UT_FIX)/$(1).elf
INITRD_DATA_ARGS += bin/$(1)=$(UT_FIX)/$(1).elf
.SECONDARY: $(2)
$(UT_FIX)/$(1).elf: $(2) $(3) $(5)
	@mkdir -p $$(dir $$@)
	@echo "  ULD     $$@"
	$(Q)$$(LD) $$(subst user/user.ld,$(3),$$(USER_LDFLAGS)) $(4) -o $$@ $(filter $(BUILD)/user/crt0.o,$(5)) $(2) $(filter-out $(BUILD)/user/crt0.o,$(5)) $(if $(5),$$(LIBGCC))
endef
UT_FIX_LIBS := $(USER_CRT0) $(USER_LIB)
$(eval $(call ut_fixture,ut-sharedpage,$(UT)/sharedpage.o,user/tests/sharedpage.ld,,$(UT_FIX_LIBS)))
$(eval $(call ut_fixture,ut-bigbss,$(UT)/bigbss.o,user/user.ld,,$(UT_FIX_LIBS)))
$(eval $(call ut_fixture,ut-interp-prog,$(UT)/interp_prog.o,user/tests/interp.ld,,$(UT_FIX_LIBS)))
# The interpreter has no crt0 and no C library, and lives at 0x30000000.
$(eval $(call ut_fixture,ut-interp,$(UT)/interp.o,user/tests/interp.ld,-Ttext-segment=0x30000000,))
