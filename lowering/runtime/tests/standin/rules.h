/*
 * The kernel contracts of the stand-in: the documented limits of each aclnn operator, as the
 * dit kernel table states them (lowering/kernel-spec/src/contracts.rs renders them into the file
 * named by $DIT_CANN_STANDIN_RULES; the stand-in never links the Rust side, the file is the
 * only channel). Phase one of an operator evaluates every rule of its symbol on the arguments
 * it recorded and refuses a violating call with the rule's documented aclnn error code, as
 * CANN's own parameter checks do. The chip is $DIT_CANN_STANDIN_SOC (what aclrtGetSocName
 * returns; Ascend910B1 when unset). Without $DIT_CANN_STANDIN_RULES no rule is checked.
 *
 * File lines (fields separated by one space; '#' starts a comment line):
 *   soc <target> <SoC-name-prefix>
 *   rule <symbol> <id> <code> <targets|*> <kind> <arguments...>
 * Positions index the phase-one arguments; "L<n>" is a tensor list (every item is checked).
 * Kinds: dtype P C,C.. | format P F | rank P MIN MAX | last_max P N | last_even P |
 *   lead_product_max P N | same_dtype P Q | null_when_str P S V,V.. | targets T,T..
 */
#ifndef DIT_STANDIN_RULES_H
#define DIT_STANDIN_RULES_H

#include "standin.h"

/* The SoC the stand-in pretends to be. */
static inline const char *standin_soc(void) {
    const char *s = getenv("DIT_CANN_STANDIN_SOC");
    return s != NULL && *s != '\0' ? s : "Ascend910B1";
}

/* The next space-separated field of *p (NULL at the end), cut out in place. */
static inline char *standin_field(char **p) {
    char *s = *p;
    while (s != NULL && *s == ' ') {
        s++;
    }
    if (s == NULL || *s == '\0') {
        *p = s;
        return NULL;
    }
    char *end = strchr(s, ' ');
    if (end != NULL) {
        *end = '\0';
        *p = end + 1;
    } else {
        *p = s + strlen(s);
    }
    return s;
}

/* Whether `item` is one of the comma-separated `list`. */
static inline bool standin_in_list(const char *list, const char *item) {
    size_t n = strlen(item);
    for (const char *p = list; *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, item, n) == 0) {
            return true;
        }
        if (end == NULL) {
            break;
        }
        p = end + 1;
    }
    return false;
}

/* The tensors at position `pos` ("3" or "L3"): 0 when the argument is NULL or out of range. */
static inline uint64_t standin_rule_tensors(const char *pos, const dit_standin_arg *args,
                                            uint64_t nargs, const aclTensor *const **items,
                                            const aclTensor **one) {
    bool is_list = pos[0] == 'L';
    uint64_t p = strtoull(pos + (is_list ? 1 : 0), NULL, 10);
    if (p >= nargs) {
        return 0;
    }
    const dit_standin_arg *a = &args[p];
    if (a->kind == STANDIN_ARG_LIST) {
        *items = (const aclTensor *const *)a->items;
        return a->n;
    }
    if (a->kind == STANDIN_ARG_TENSOR) {
        *one = a->tensor;
        *items = one;
        return 1;
    }
    return 0;
}

/* Checks one rule body (`kind` and its arguments in `rest`) on the recorded arguments; writes
 * the reason into `why` and returns false when it is broken. */
static inline bool standin_rule_holds(const char *kind, char *rest, const char *target,
                                      const dit_standin_arg *args, uint64_t nargs, char *why,
                                      size_t why_size) {
    char *a1 = standin_field(&rest);
    char *a2 = standin_field(&rest);
    char *a3 = standin_field(&rest);
    if (strcmp(kind, "targets") == 0) {
        if (a1 != NULL && target != NULL && standin_in_list(a1, target)) {
            return true;
        }
        snprintf(why, why_size, "the operator exists on %s only; this SoC is %s",
                 a1 != NULL ? a1 : "?", standin_soc());
        return false;
    }
    if (a1 == NULL) {
        snprintf(why, why_size, "malformed rule (%s without a position)", kind);
        return false;
    }
    const aclTensor *one = NULL;
    const aclTensor *const *items = NULL;
    uint64_t n = standin_rule_tensors(a1, args, nargs, &items, &one);
    if (strcmp(kind, "null_when_str") == 0) {
        uint64_t s = a2 != NULL ? strtoull(a2, NULL, 10) : nargs;
        bool excluded = s < nargs && args[s].kind == STANDIN_ARG_STR && a3 != NULL &&
                        standin_in_list(a3, args[s].s);
        if (excluded && n > 0) {
            snprintf(why, why_size, "argument %s must be NULL with \"%s\"", a1, args[s].s);
            return false;
        }
        return true;
    }
    if (strcmp(kind, "same_dtype") == 0) {
        const aclTensor *one2 = NULL;
        const aclTensor *const *items2 = NULL;
        uint64_t n2 = a2 != NULL ? standin_rule_tensors(a2, args, nargs, &items2, &one2) : 0;
        if (n > 0 && n2 > 0 && items[0]->dtype != items2[0]->dtype) {
            snprintf(why, why_size, "argument %s has dtype %d, argument %s dtype %d", a1,
                     items[0]->dtype, a2, items2[0]->dtype);
            return false;
        }
        return true;
    }
    for (uint64_t i = 0; i < n; i++) {
        const aclTensor *t = items[i];
        int64_t last = t->ndim > 0 ? t->dims[t->ndim - 1] : -1;
        if (strcmp(kind, "dtype") == 0) {
            char code[16];
            snprintf(code, sizeof code, "%d", t->dtype);
            if (a2 == NULL || !standin_in_list(a2, code)) {
                snprintf(why, why_size, "argument %s has dtype %d, not one of %s", a1, t->dtype,
                         a2 != NULL ? a2 : "?");
                return false;
            }
        } else if (strcmp(kind, "format") == 0) {
            if (a2 == NULL || t->format != atoi(a2)) {
                snprintf(why, why_size, "argument %s has format %d, the kernel takes %s", a1,
                         t->format, a2 != NULL ? a2 : "?");
                return false;
            }
        } else if (strcmp(kind, "rank") == 0) {
            uint64_t lo = a2 != NULL ? strtoull(a2, NULL, 10) : 0;
            uint64_t hi = a3 != NULL ? strtoull(a3, NULL, 10) : 0;
            if (t->ndim < lo || t->ndim > hi) {
                snprintf(why, why_size, "argument %s has rank %llu, the kernel takes %llu-%llu",
                         a1, (unsigned long long)t->ndim, (unsigned long long)lo,
                         (unsigned long long)hi);
                return false;
            }
        } else if (strcmp(kind, "last_max") == 0) {
            long long max = a2 != NULL ? atoll(a2) : 0;
            if (last < 0 || last > max) {
                snprintf(why, why_size, "argument %s has last dim %lld > %lld", a1,
                         (long long)last, max);
                return false;
            }
        } else if (strcmp(kind, "last_even") == 0) {
            if (last < 0 || last % 2 != 0) {
                snprintf(why, why_size, "argument %s has an odd last dim %lld", a1,
                         (long long)last);
                return false;
            }
        } else if (strcmp(kind, "lead_product_max") == 0) {
            long long max = a2 != NULL ? atoll(a2) : 0;
            long long product = 1;
            for (uint64_t d = 0; d + 1 < t->ndim; d++) {
                product *= t->dims[d];
            }
            if (product > max) {
                snprintf(why, why_size,
                         "argument %s: the product of all dims but the last is %lld > %lld", a1,
                         product, max);
                return false;
            }
        } else {
            snprintf(why, why_size, "unknown rule kind %s", kind);
            return false;
        }
    }
    return true;
}

/* Evaluates every rule of `symbol` on its recorded phase-one arguments. 0: all hold (or no
 * rules file); otherwise the broken rule's code, with "rule <id>: <why>" in `why`. */
static inline int32_t standin_rules_check(const char *symbol, const dit_standin_arg *args,
                                          uint64_t nargs, char *why, size_t why_size) {
    const char *path = getenv("DIT_CANN_STANDIN_RULES");
    if (path == NULL || *path == '\0') {
        return 0;
    }
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(why, why_size, "rules file %s cannot be read", path);
        return 161002;
    }
    const char *soc = standin_soc();
    char target[64] = "";
    char line[1024];
    int32_t code = 0;
    while (code == 0 && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        char *rest = line;
        char *tag = standin_field(&rest);
        if (tag == NULL || tag[0] == '#') {
            continue;
        }
        if (strcmp(tag, "soc") == 0) {
            char *name = standin_field(&rest);
            char *prefix = standin_field(&rest);
            if (name != NULL && prefix != NULL && strncmp(soc, prefix, strlen(prefix)) == 0) {
                snprintf(target, sizeof target, "%s", name);
            }
            continue;
        }
        char *sym = standin_field(&rest);
        char *id = standin_field(&rest);
        char *code_text = standin_field(&rest);
        char *on = standin_field(&rest);
        char *kind = standin_field(&rest);
        if (strcmp(tag, "rule") != 0 || kind == NULL || strcmp(sym, symbol) != 0) {
            continue;
        }
        if (strcmp(on, "*") != 0 && (target[0] == '\0' || !standin_in_list(on, target))) {
            continue;
        }
        char reason[192];
        if (!standin_rule_holds(kind, rest, target[0] != '\0' ? target : NULL, args, nargs,
                                reason, sizeof reason)) {
            snprintf(why, why_size, "rule %s: %s", id, reason);
            code = (int32_t)atoi(code_text);
        }
    }
    fclose(f);
    return code;
}

#endif
