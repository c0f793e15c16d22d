/*
 * Stand-in libascendcl.so: aclInit/aclFinalize, device, stream, device memory. See standin.h:
 * it checks the protocol; memory copies and allocations are logged with their sizes and
 * addresses so that a test can count uploads, downloads and synchronisations. Prototypes from
 * acl/acl.h and acl/acl_rt.h of CANN 8.1.RC1.
 */
#include "rules.h"
#include "standin.h"

#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_MEMCPY_HOST_TO_DEVICE 1
#define ACL_MEMCPY_DEVICE_TO_HOST 2

static int initialized;
static int device = -1;
static int64_t live_device;
static int64_t live_streams;

static aclError fail(const char *where, const char *why, aclError code) {
    char line[512];
    snprintf(line, sizeof line, "ERROR %s: %s", where, why);
    standin_log(line);
    return code;
}

aclError aclInit(const char *configPath) {
    if (configPath != NULL) {
        return fail("aclInit", "expected a NULL config path", ACL_ERROR_INVALID_PARAM);
    }
    if (initialized) {
        return fail("aclInit", "already initialised", ACL_ERROR_REPEAT_INITIALIZE);
    }
    initialized = 1;
    standin_log("INIT");
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    if (!initialized) {
        return fail("aclFinalize", "not initialised", ACL_ERROR_UNINITIALIZE);
    }
    if (device >= 0 || live_streams != 0) {
        return fail("aclFinalize", "device still set or streams alive", ACL_ERROR_INVALID_PARAM);
    }
    initialized = 0;
    char line[64];
    snprintf(line, sizeof line, "FINALIZE live_device=%lld", (long long)live_device);
    standin_log(line);
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
    if (!initialized) {
        return fail("aclrtSetDevice", "before aclInit", ACL_ERROR_UNINITIALIZE);
    }
    device = deviceId;
    char line[64];
    snprintf(line, sizeof line, "SET_DEVICE %d", deviceId);
    standin_log(line);
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
    if (deviceId != device) {
        return fail("aclrtResetDevice", "not the device that was set", ACL_ERROR_INVALID_PARAM);
    }
    if (live_streams != 0) {
        return fail("aclrtResetDevice", "streams still alive", ACL_ERROR_INVALID_PARAM);
    }
    device = -1;
    char line[64];
    snprintf(line, sizeof line, "RESET_DEVICE %d", deviceId);
    standin_log(line);
    return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *stream) {
    if (stream == NULL || device < 0) {
        return fail("aclrtCreateStream", "NULL out-pointer or no device set", ACL_ERROR_INVALID_PARAM);
    }
    Stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return ACL_ERROR_BAD_ALLOC;
    }
    s->magic = MAGIC_STREAM;
    *stream = s;
    live_streams++;
    standin_log("CREATE_STREAM");
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    Stream *s = stream;
    if (s == NULL || s->magic != MAGIC_STREAM) {
        return fail("aclrtDestroyStream", "not a live stream", ACL_ERROR_INVALID_PARAM);
    }
    s->magic = MAGIC_DEAD; /* kept allocated so a later use is detected, not undefined */
    live_streams--;
    standin_log("DESTROY_STREAM");
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    Stream *s = stream;
    if (s == NULL || s->magic != MAGIC_STREAM) {
        return fail("aclrtSynchronizeStream", "not a live stream", ACL_ERROR_INVALID_PARAM);
    }
    standin_log("SYNC");
    return ACL_SUCCESS;
}

aclError aclrtMalloc(void **devPtr, size_t size, int policy) {
    if (devPtr == NULL || size == 0 || policy < 0 || device < 0) {
        return fail("aclrtMalloc", "NULL out-pointer, size 0, bad policy or no device",
                    ACL_ERROR_INVALID_PARAM);
    }
    DeviceHeader *h = calloc(1, sizeof(DeviceHeader) + size);
    if (h == NULL) {
        return ACL_ERROR_BAD_ALLOC;
    }
    h->magic = MAGIC_DEVICE;
    h->size = size;
    *devPtr = h + 1;
    live_device++;
    char line[128];
    snprintf(line, sizeof line, "MALLOC bytes=%zu ptr=%p", size, *devPtr);
    standin_log(line);
    return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr) {
    DeviceHeader *h = standin_device_header(devPtr);
    if (h == NULL) {
        return fail("aclrtFree", "not a live device allocation", ACL_ERROR_INVALID_PARAM);
    }
    h->magic = 0;
    free(h);
    live_device--;
    char line[64];
    snprintf(line, sizeof line, "FREE ptr=%p", devPtr);
    standin_log(line);
    return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, int kind) {
    if (dst == NULL || src == NULL || count > destMax) {
        return fail("aclrtMemcpy", "NULL pointer or count > destMax", ACL_ERROR_INVALID_PARAM);
    }
    const void *device_side = kind == ACL_MEMCPY_HOST_TO_DEVICE ? dst
                              : kind == ACL_MEMCPY_DEVICE_TO_HOST ? src
                                                                  : NULL;
    if (device_side == NULL) {
        return fail("aclrtMemcpy", "only host-to-device and device-to-host are expected",
                    ACL_ERROR_INVALID_PARAM);
    }
    DeviceHeader *h = standin_device_header(device_side);
    if (h == NULL || count > h->size) {
        return fail("aclrtMemcpy", "device side is not a device allocation of count bytes",
                    ACL_ERROR_INVALID_PARAM);
    }
    memcpy(dst, src, count);
    char line[160];
    snprintf(line, sizeof line, "MEMCPY %s bytes=%zu src=%p dst=%p",
             kind == ACL_MEMCPY_HOST_TO_DEVICE ? "H2D" : "D2H", count, src, dst);
    standin_log(line);
    return ACL_SUCCESS;
}

/* aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
 * aclrtStream stream): the stand-in runs it at once (its stream has no queue). */
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
    DeviceHeader *h = standin_device_header(devPtr);
    Stream *s = stream;
    if (h == NULL || count > maxCount || count > h->size || s == NULL ||
        s->magic != MAGIC_STREAM) {
        return fail("aclrtMemsetAsync",
                    "not a device allocation of count bytes, count > maxCount, or no live stream",
                    ACL_ERROR_INVALID_PARAM);
    }
    memset(devPtr, value, count);
    return ACL_SUCCESS;
}

/* Stand-in only: live device allocations, for leak checks. */
int64_t dit_standin_live(void) {
    return live_device;
}

/* const char *aclrtGetSocName() (acl_rt.h): the chip the stand-in pretends to be,
 * $DIT_CANN_STANDIN_SOC (Ascend910B1 when unset), which its kernel contracts also read. */
const char *aclrtGetSocName(void) {
    return standin_soc();
}
