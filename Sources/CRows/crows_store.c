#define _GNU_SOURCE
#include "crows.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// The steps of a tile pyramid and the file it is written to.

void crows_halve(const uint8_t *above, const uint8_t *below, int width, uint8_t *dst) {
    int pairs = width / 2;
    for (int i = 0; i < pairs; i++) {
        const uint8_t *a = above + i * 8, *b = below + i * 8;
        uint8_t *d = dst + i * 4;
        for (int c = 0; c < 4; c++) d[c] = (uint8_t)((a[c] + a[c + 4] + b[c] + b[c + 4] + 2) >> 2);
    }
    if (width & 1) {
        const uint8_t *a = above + pairs * 8, *b = below + pairs * 8;
        uint8_t *d = dst + pairs * 4;
        for (int c = 0; c < 4; c++) d[c] = (uint8_t)((a[c] + b[c] + 1) >> 1);
    }
}

int crows_unnamed_file(const char *directory) {
    int fd = open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
    char name[4096];
    if (snprintf(name, sizeof name, "%s/mediaview-tiles-XXXXXX", directory) >= (int)sizeof name) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkostemp(name, O_CLOEXEC);
    if (fd >= 0) unlink(name);
    return fd;
}

int crows_bypass_cache(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? flags | O_DIRECT : flags & ~O_DIRECT);
}

long crows_write_rows(int fd, long offset, const uint8_t *first, size_t stride, size_t row_bytes, int rows,
                      uint8_t *staging) {
    for (int i = 0; i < rows; i++) memcpy(staging + (size_t)i * row_bytes, first + (size_t)i * stride, row_bytes);
    if (lseek(fd, offset, SEEK_SET) != offset) return -1;
    size_t want = row_bytes * (size_t)rows, done = 0;
    while (done < want) {
        ssize_t n = write(fd, staging + done, want - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return done > 0 ? (long)done : -1;
        done += (size_t)n;
    }
    return (long)done;
}
