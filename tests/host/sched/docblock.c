/* tests/host/sched/docblock.c - see docblock.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docblock.h"

char *read_doc(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	s[n] = '\0';
	fclose(f);
	return s;
}

char *block(char *doc, const char *nm, char **end)
{
	char open[64], close[64], *a, *z;

	snprintf(open, sizeof(open), "<!-- worked:%s -->\n", nm);
	snprintf(close, sizeof(close), "<!-- /worked:%s -->", nm);
	a = strstr(doc, open);
	if (!a)
		return NULL;
	a += strlen(open);
	z = strstr(a, close);
	if (!z)
		return NULL;
	*end = z;
	return a;
}
