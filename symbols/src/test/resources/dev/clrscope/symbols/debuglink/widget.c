/* A library whose only function names are in its separate debug file. */
__attribute__((noinline)) static int helper_hidden(int x) { return x * 7 + 3; }
int widget_exported(int x) { return helper_hidden(x) + 1; }
