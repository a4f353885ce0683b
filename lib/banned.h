/* SPDX-License-Identifier: Apache-2.0 */
/* Functions this codebase never calls; using one is a compile error (git banned.h). */
#ifndef AIPERF_BANNED_H
#define AIPERF_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef gmtime
#define gmtime(x) BANNED(gmtime)
#undef localtime
#define localtime(x) BANNED(localtime)
/* util_strerror() knows EFTYPE */
#undef strerror
#define strerror(x) BANNED(strerror)

#endif
