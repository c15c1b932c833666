// runstat: runs a command many times and prints what each run cost the process itself.
//
//   runstat RUNS WARMUP COMMAND [ARG...]
//   prints: runs=N wall_p50_ms=.. wall_p90_ms=.. cpu_p50_ms=.. peak_rss_p50_kib=..
//
// Why a C program: peak RSS comes from wait4's rusage, and Linux counts in it the memory of
// the process the child was forked or spawned from (the peak of the address space it had
// before exec). Started from the Swift benchmark process, every command would read at least
// that process's size; started from this one, it reads its own.
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int by_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double milliseconds(struct timeval t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; }

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: runstat RUNS WARMUP COMMAND [ARG...]\n");
        return 2;
    }
    int runs = atoi(argv[1]), warmup = atoi(argv[2]);
    if (runs < 1 || warmup < 0) {
        fprintf(stderr, "runstat: RUNS must be at least 1 and WARMUP at least 0\n");
        return 2;
    }
    double *wall = calloc(runs, sizeof *wall), *cpu = calloc(runs, sizeof *cpu), *rss = calloc(runs, sizeof *rss);
    for (int i = -warmup; i < runs; i++) {
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        pid_t pid = fork();
        if (pid < 0) { perror("runstat: fork"); return 1; }
        if (pid == 0) {
            int null = open("/dev/null", O_RDWR);
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
            execv(argv[3], argv + 3);
            _exit(127);
        }
        int status;
        struct rusage usage;
        while (wait4(pid, &status, 0, &usage) < 0) {}
        clock_gettime(CLOCK_MONOTONIC, &end);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "runstat: %s ended with status %d\n", argv[3], WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
            return 1;
        }
        if (i < 0) continue;
        wall[i] = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
        cpu[i] = milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime);
        rss[i] = usage.ru_maxrss;
    }
    qsort(wall, runs, sizeof *wall, by_double);
    qsort(cpu, runs, sizeof *cpu, by_double);
    qsort(rss, runs, sizeof *rss, by_double);
    printf("runs=%d wall_p50_ms=%.2f wall_p90_ms=%.2f cpu_p50_ms=%.2f peak_rss_p50_kib=%.0f\n",
           runs, wall[runs / 2], wall[runs * 9 / 10], cpu[runs / 2], rss[runs / 2]);
    return 0;
}
