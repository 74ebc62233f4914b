#include <stddef.h>
#include <stdint.h>
size_t record_length(const uint8_t *data, size_t size);
int checksum(const uint8_t *data, size_t size);
int use_after_free(const uint8_t *data, size_t size);
int read_flag(int set);
int scale(int value);
int depth(int n);
int poke(uintptr_t address);
void stop(const uint8_t *data, size_t size);
void spin(const uint8_t *data, size_t size);
void *hoard(const uint8_t *data, size_t size);
