"""Borrowed views of the kernel's structs for the duration of one compiled call.

Compiled code counts references to every array it is handed: a recursive search that takes
four structs of arrays pays an atomic increment and decrement per array at every node.
``borrowed`` returns the same struct with each array's owner pointer cleared, so those
counts become no-ops. The caller keeps the original struct (and so the arrays) alive for
as long as the borrowed one is in use: the entry points take the struct from Python and
only pass the borrowed copy down."""

from __future__ import annotations

import os
from typing import Any, TypeVar

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

T = TypeVar("T")

if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):

    def borrowed(value: T) -> T:
        return value

else:

    @intrinsic
    def borrowed(typingctx: Any, value: Any) -> Any:
        if not isinstance(value, types.BaseTuple):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            result = args[0]
            members: tuple[Any, ...] = getattr(value, "types")  # noqa: B009
            for k, member_type in enumerate(members):
                if isinstance(member_type, types.Array):
                    member = builder.extract_value(result, k)
                    array = context.make_array(member_type)(context, builder, value=member)
                    array.meminfo = cgutils.get_null_value(array.meminfo.type)
                    result = builder.insert_value(result, array._getvalue(), k)
            return result

        return value(value), codegen
