/* calls.sh fixture: a.c calls b.c (the loop's first step) */
int loop_b(int x);
int loop_a(int x) { return x > 0 ? loop_b(x - 1) : 0; }
