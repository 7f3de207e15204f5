/*
 * ProcessPrng for Wine 8, which has no bcryptprimitives.dll: Rust's standard library (1.78 and
 * later) draws every random byte on Windows from this export, so without it no Rust program
 * starts under Wine 8. It gives the bytes of BCryptGenRandom with the system's preferred
 * generator, which is what ProcessPrng is on Windows.
 *
 * scripts/windows builds it into the target directory beside the test binaries it runs under
 * Wine. It is never shipped: Windows 10 and later have the real one.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* BCryptGenRandom takes a ULONG length: a larger request is served in parts. */
    while (length > 0) {
        ULONG part = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!BCRYPT_SUCCESS(BCryptGenRandom(NULL, data, part, BCRYPT_USE_SYSTEM_PREFERRED_RNG)))
            return FALSE;
        data += part;
        length -= part;
    }
    return TRUE;
}
