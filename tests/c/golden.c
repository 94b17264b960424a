/* The C library asked what the golden files ask (tests/tests/integration/c_api.rs
 * drives it): each line of standard input is GAME, a tab, then either a
 * query string (`mask=all&dice=12456&rerolls=2`) or, after `args:`, name and
 * value pairs separated by tabs (a name alone is a flag). Each answer is
 * one line on standard output: the status number, a tab, the JSON answer
 * or the message. The tables are the directory named by the first argument.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice_tables.h"

#define MAX_ARGS 32

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: golden TABLES_DIR < lookups\n");
        return 2;
    }
    DtTables *tables = NULL;
    char *error = NULL;
    if (dt_tables_open_dir(argv[1], &tables, &error) != DT_OK) {
        fprintf(stderr, "golden: %s\n", error);
        dt_string_free(error);
        return 1;
    }
    static char line[1 << 16];
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (tab == NULL) {
            fprintf(stderr, "golden: no tab in %s\n", line);
            return 2;
        }
        *tab = '\0';
        const char *game = line;
        char *rest = tab + 1;
        char *result = NULL;
        DtStatus status;
        if (strncmp(rest, "args:", 5) == 0) {
            const char *names[MAX_ARGS];
            const char *values[MAX_ARGS];
            size_t count = 0;
            for (char *field = strtok(rest + 5, "\t"); field != NULL && count < MAX_ARGS; field = strtok(NULL, "\t")) {
                char *eq = strchr(field, '=');
                if (eq != NULL) *eq = '\0';
                names[count] = field;
                values[count] = eq != NULL ? eq + 1 : NULL;
                count++;
            }
            status = dt_lookup_args(tables, game, names, values, count, &result);
        } else {
            status = dt_lookup(tables, game, rest, &result);
        }
        printf("%d\t%s\n", (int)status, result);
        dt_string_free(result);
    }
    dt_tables_free(tables);
    return 0;
}
