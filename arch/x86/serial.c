/*
 * arch/x86/serial.c - 16550A UART on COM1 (0x3f8), 115200 8N1.
 *
 * Output is polled (printk must work with interrupts off and before the
 * IDT exists); input is interrupt-driven (IRQ 4) and handed to the tty
 * layer (kernel/tty.c), which read(0, ...) drains.  A missing UART (LSR
 * reads 0xff, as on most modern laptops) is detected and then never waited
 * for, so printk cannot hang.
 */
#include <kernel/printk.h>
#include <kernel/tty.h>
#include <arch/cpu.h>
#include <arch/irq.h>
#include <arch/serial.h>

#define COM1		0x3f8
#define UART_RBR	0	/* receive buffer (DLAB=0) */
#define UART_THR	0	/* transmit holding (DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1	/* interrupt enable (DLAB=0) */
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define LSR_DR		0x01	/* data ready */
#define LSR_THRE	0x20	/* transmit holding register empty */
#define TX_SPIN_LIMIT	100000	/* ~100 ms worst case on real hardware */

static int uart_present;

static void serial_putc(char c)
{
	for (int spins = 0; !(inb(COM1 + UART_LSR) & LSR_THRE); spins++)
		if (spins > TX_SPIN_LIMIT)
			return;
	outb(COM1 + UART_THR, (u8)c);
}

static void serial_write(const char *s, size_t n)
{
	if (!uart_present)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

static struct console serial_console = { .name = "ttyS0", .write = serial_write };

void serial_init(void)
{
	if (inb(COM1 + UART_LSR) == 0xff)
		return;			/* nothing decodes this port */
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80);	/* DLAB on */
	outb(COM1 + UART_DLL, 1);	/* 115200 = 1.8432 MHz / 16 / 1 */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, 0x03);	/* 8N1, DLAB off */
	outb(COM1 + UART_FCR, 0xc7);	/* FIFO on, clear, 14-byte trigger */
	outb(COM1 + UART_MCR, 0x0b);	/* DTR, RTS, OUT2 (IRQ gate) */
	uart_present = 1;
	register_console(&serial_console);
}

static void serial_irq(struct trap_frame *tf)
{
	while (inb(COM1 + UART_LSR) & LSR_DR)
		tty_receive((char)inb(COM1 + UART_RBR));
}

void serial_enable_rx_irq(void)
{
	if (!uart_present)
		return;
	request_irq(4, serial_irq);
	outb(COM1 + UART_IER, 0x01);	/* data-available interrupt */
}
