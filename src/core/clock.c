/* clock.c: see clock.h. */
#include <time.h>

#include "clock.h"

long long
clock_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

long long
clock_mono_ms(void)
{
	return clock_mono_us() / 1000;
}
