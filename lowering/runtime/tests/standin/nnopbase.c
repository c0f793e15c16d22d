/*
 * Stand-in libnnopbase.so: aclTensor, aclScalar, aclIntArray, aclTensorList. See standin.h:
 * it checks the protocol and computes nothing. Prototypes from aclnn/acl_meta.h of CANN
 * 8.1.RC1. As documented for CANN, aclDestroyTensorList also destroys the list's tensors.
 */
#include "standin.h"

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002

static int64_t live_objects;

static void complain(const char *where, const char *why) {
    char line[512];
    snprintf(line, sizeof line, "ERROR %s: %s", where, why);
    standin_log(line);
}

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData) {
    unsigned bits = standin_dtype_bits(dataType);
    if (viewDimsNum > STANDIN_MAX_DIMS || storageDimsNum > STANDIN_MAX_DIMS || bits == 0 ||
        offset < 0 || (viewDimsNum > 0 && (viewDims == NULL || stride == NULL)) ||
        (storageDimsNum > 0 && storageDims == NULL)) {
        complain("aclCreateTensor", "bad rank, dtype, offset or NULL dims");
        return NULL;
    }
    /* The view must stay inside the storage, and the storage inside the allocation. */
    int64_t last = offset, storage_elems = 1;
    for (uint64_t i = 0; i < viewDimsNum; i++) {
        if (viewDims[i] < 0 || stride[i] < 0) {
            complain("aclCreateTensor", "negative dim or stride");
            return NULL;
        }
        if (viewDims[i] == 0) {
            last = -1;
            break;
        }
        last += (viewDims[i] - 1) * stride[i];
    }
    for (uint64_t i = 0; i < storageDimsNum; i++) {
        storage_elems *= storageDims[i];
    }
    if (last >= storage_elems && storage_elems > 0) {
        complain("aclCreateTensor", "view reaches past the storage");
        return NULL;
    }
    DeviceHeader *h = standin_device_header(tensorData);
    uint64_t storage_bytes = ((uint64_t)storage_elems * bits + 7) / 8;
    if (h == NULL || storage_bytes > h->size) {
        complain("aclCreateTensor", "data is not a device allocation holding the storage");
        return NULL;
    }
    aclTensor *t = calloc(1, sizeof *t);
    if (t == NULL) {
        return NULL;
    }
    t->magic = MAGIC_TENSOR;
    t->dtype = dataType;
    t->format = format;
    t->offset = offset;
    t->ndim = viewDimsNum;
    t->nstorage = storageDimsNum;
    for (uint64_t i = 0; i < viewDimsNum; i++) {
        t->dims[i] = viewDims[i];
        t->strides[i] = stride[i];
    }
    for (uint64_t i = 0; i < storageDimsNum; i++) {
        t->storage[i] = storageDims[i];
    }
    t->data = tensorData;
    live_objects++;
    return t;
}

/* A static helper, so that aclDestroyTensorList never binds to another loaded copy's exported
 * aclDestroyTensor (the backend loads the libraries RTLD_GLOBAL, and each test builds its own). */
static aclnnStatus destroy_tensor(aclTensor *t) {
    if (t == NULL || t->magic != MAGIC_TENSOR) {
        complain("aclDestroyTensor", "not a live tensor (destroyed twice, or owned by a list?)");
        return ACLNN_ERR_PARAM_INVALID;
    }
    t->magic = MAGIC_DEAD; /* kept allocated so a later use is detected */
    live_objects--;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    return destroy_tensor((aclTensor *)tensor);
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    unsigned bits = standin_dtype_bits(dataType);
    if (value == NULL || bits < 8) {
        complain("aclCreateScalar", "NULL value or unsupported dtype");
        return NULL;
    }
    aclScalar *s = calloc(1, sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    s->magic = MAGIC_SCALAR;
    s->dtype = dataType;
    memcpy(s->value, value, bits / 8); /* CANN copies the value too */
    live_objects++;
    return s;
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
    aclScalar *s = (aclScalar *)scalar;
    if (s == NULL || s->magic != MAGIC_SCALAR) {
        complain("aclDestroyScalar", "not a live scalar");
        return ACLNN_ERR_PARAM_INVALID;
    }
    s->magic = MAGIC_DEAD;
    live_objects--;
    return ACLNN_SUCCESS;
}

aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size) {
    if (value == NULL && size > 0) {
        complain("aclCreateIntArray", "NULL values");
        return NULL;
    }
    aclIntArray *a = calloc(1, sizeof *a);
    int64_t *copy = calloc(size > 0 ? size : 1, sizeof(int64_t));
    if (a == NULL || copy == NULL) {
        free(a);
        free(copy);
        return NULL;
    }
    if (size > 0) {
        memcpy(copy, value, size * sizeof(int64_t));
    }
    a->magic = MAGIC_ARRAY;
    a->size = size;
    a->values = copy;
    live_objects++;
    return a;
}

aclnnStatus aclDestroyIntArray(const aclIntArray *array) {
    aclIntArray *a = (aclIntArray *)array;
    if (a == NULL || a->magic != MAGIC_ARRAY) {
        complain("aclDestroyIntArray", "not a live int array");
        return ACLNN_ERR_PARAM_INVALID;
    }
    a->magic = MAGIC_DEAD;
    live_objects--;
    return ACLNN_SUCCESS;
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    if (value == NULL || size == 0) {
        complain("aclCreateTensorList", "NULL or empty");
        return NULL;
    }
    for (uint64_t i = 0; i < size; i++) {
        if (value[i] == NULL || value[i]->magic != MAGIC_TENSOR) {
            complain("aclCreateTensorList", "an item is not a live tensor");
            return NULL;
        }
    }
    aclTensorList *l = calloc(1, sizeof *l);
    aclTensor **items = calloc(size, sizeof(aclTensor *));
    if (l == NULL || items == NULL) {
        free(l);
        free(items);
        return NULL;
    }
    memcpy(items, value, size * sizeof(aclTensor *));
    l->magic = MAGIC_LIST;
    l->size = size;
    l->items = items;
    live_objects++;
    return l;
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
    aclTensorList *l = (aclTensorList *)array;
    if (l == NULL || l->magic != MAGIC_LIST) {
        complain("aclDestroyTensorList", "not a live tensor list");
        return ACLNN_ERR_PARAM_INVALID;
    }
    for (uint64_t i = 0; i < l->size; i++) {
        aclnnStatus s = destroy_tensor(l->items[i]);
        if (s != ACLNN_SUCCESS) {
            return s;
        }
    }
    l->magic = MAGIC_DEAD;
    live_objects--;
    return ACLNN_SUCCESS;
}

/* Stand-in only: live tensors, scalars, int arrays and tensor lists, for leak checks. */
int64_t dit_standin_live(void) {
    return live_objects;
}
