"""pytest plugin for tests/provider/run-pyca.sh: per test file, the outcome
counts (tests and subtests) and the bytes hwcrypt's provider carried in this
process (its "hwcrypt-bytes" parameter, read through libcrypto with ctypes:
pyca's bindings have no OSSL_PROVIDER_get_params).  Written as JSON to the
path in HWC_PYCA_REPORT at the end of the session."""
import ctypes
import ctypes.util
import json
import os
from collections import defaultdict


class _Param(ctypes.Structure):  # OSSL_PARAM
    _fields_ = [
        ("key", ctypes.c_char_p),
        ("data_type", ctypes.c_uint),
        ("data", ctypes.c_void_p),
        ("data_size", ctypes.c_size_t),
        ("return_size", ctypes.c_size_t),
    ]


_OSSL_PARAM_UNSIGNED_INTEGER = 2
_crypto = ctypes.CDLL(ctypes.util.find_library("crypto") or "libcrypto.so.3")
_crypto.OSSL_PROVIDER_available.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_crypto.OSSL_PROVIDER_load.restype = ctypes.c_void_p
_crypto.OSSL_PROVIDER_load.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
_crypto.OSSL_PROVIDER_get_params.argtypes = [ctypes.c_void_p, ctypes.POINTER(_Param)]
_provider = None


def hwcrypt_bytes():
    """The counter, or None when hwcrypt's provider is not active here."""
    global _provider
    if _provider is None:
        # Only an active provider: loading it here would change the run.
        if not _crypto.OSSL_PROVIDER_available(None, b"hwcrypt"):
            return None
        _provider = _crypto.OSSL_PROVIDER_load(None, b"hwcrypt")  # a reference to the loaded one
    value = ctypes.c_uint64(0)
    params = (_Param * 2)()
    params[0] = _Param(b"hwcrypt-bytes", _OSSL_PARAM_UNSIGNED_INTEGER,
                       ctypes.cast(ctypes.byref(value), ctypes.c_void_p), 8, 0)
    if not _crypto.OSSL_PROVIDER_get_params(_provider, params):
        return None
    return value.value


_files = defaultdict(lambda: defaultdict(int))
_before = {}


def _file_of(nodeid):
    return nodeid.split("::", 1)[0]


def pytest_runtest_logstart(nodeid, location):
    _before[nodeid] = hwcrypt_bytes()


def pytest_runtest_logfinish(nodeid, location):
    start, end = _before.pop(nodeid, None), hwcrypt_bytes()
    if start is not None and end is not None:
        _files[_file_of(nodeid)]["hwcrypt_bytes"] += end - start
    elif end is None:
        _files[_file_of(nodeid)]["hwcrypt_absent"] = 1


def pytest_runtest_logreport(report):
    counts = _files[_file_of(report.nodeid)]
    sub = "subtest_" if type(report).__name__ == "SubTestReport" else ""
    if report.when == "call" or (report.when == "setup" and not report.passed):
        counts[sub + report.outcome] += 1
    elif report.when == "teardown" and report.failed:
        counts[sub + "error"] += 1


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("HWC_PYCA_REPORT")
    if path:
        with open(path, "w") as f:
            json.dump({k: dict(v) for k, v in _files.items()}, f, indent=1, sort_keys=True)
