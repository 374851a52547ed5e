/*
 * arch/x86/pic.c - the two cascaded 8259A PICs.
 *
 * Remapped so IRQ 0..7 -> vectors 0x20..0x27 (master) and IRQ 8..15 ->
 * 0x28..0x2f (slave, cascaded on master line 2): the BIOS default 0x08..0x0f
 * would collide with CPU exceptions.  All lines start masked; request_irq()
 * unmasks.  Spurious IRQ 7/15 are recognised through the in-service register
 * and get no (or only a master) EOI, as the 8259A datasheet requires.
 */
#include <arch/cpu.h>
#include <arch/irq.h>

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xa0
#define PIC2_DATA	0xa1
#define PIC_EOI		0x20
#define OCW3_READ_ISR	0x0b

static u16 irq_mask = 0xffff;	/* bit set = masked; bit 2 is the cascade */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

void pic_init(void)
{
	outb(PIC1_CMD, 0x11); io_delay();	/* ICW1: edge, cascade, ICW4 needed */
	outb(PIC2_CMD, 0x11); io_delay();
	outb(PIC1_DATA, IRQ0_VECTOR); io_delay();	/* ICW2: vector base */
	outb(PIC2_DATA, IRQ0_VECTOR + 8); io_delay();
	outb(PIC1_DATA, 0x04); io_delay();	/* ICW3: slave on line 2 */
	outb(PIC2_DATA, 0x02); io_delay();	/* ICW3: cascade identity */
	outb(PIC1_DATA, 0x01); io_delay();	/* ICW4: 8086 mode */
	outb(PIC2_DATA, 0x01); io_delay();
	irq_mask = 0xffff & ~(1u << 2);	/* everything masked but the cascade */
	pic_write_mask();
}

void pic_unmask(int irq) { irq_mask &= (u16)~(1u << irq); pic_write_mask(); }

/* Returns 1 if IRQ 7/15 was spurious (not in service). */
static int pic_spurious(int irq)
{
	u16 cmd = irq < 8 ? PIC1_CMD : PIC2_CMD;

	if ((irq & 7) != 7)
		return 0;
	outb(cmd, OCW3_READ_ISR);
	return !(inb(cmd) & 0x80);
}

void pic_eoi(int irq)
{
	if (pic_spurious(irq)) {
		if (irq >= 8)	/* the master saw a real cascade request */
			outb(PIC1_CMD, PIC_EOI);
		return;
	}
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
}
