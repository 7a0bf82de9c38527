"""A hint to the processor to start loading a transposition-table slot from memory while
the search does other work: the slot of a child position is known as soon as its move is
placed, well before the child's probe reads it. It changes no result."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):

    def prefetch_row(table: np.ndarray, row: int) -> None:
        return None

else:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    @intrinsic
    def prefetch_row(typingctx: Any, table: Any, row: Any) -> Any:
        """Prefetch the first element of ``table[row]`` (a 2-D array) for reading."""
        if not (isinstance(table, types.Array) and table.ndim == 2):
            return None
        if not isinstance(row, types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array_type = signature.args[0]
            array = context.make_array(array_type)(context, builder, value=args[0])
            index = context.cast(builder, args[1], signature.args[1], types.intp)
            zero = context.get_constant(types.intp, 0)
            pointer = cgutils.get_item_pointer(
                context, builder, array_type, array, [index, zero], wraparound=False
            )
            void_pointer = ir.PointerType(ir.IntType(8))
            function_type = ir.FunctionType(
                ir.VoidType(), [void_pointer, ir.IntType(32), ir.IntType(32), ir.IntType(32)]
            )
            function = cgutils.get_or_insert_function(
                builder.module, function_type, "llvm.prefetch.p0"
            )
            read, locality, data_cache = (ir.Constant(ir.IntType(32), v) for v in (0, 3, 1))
            builder.call(
                function, [builder.bitcast(pointer, void_pointer), read, locality, data_cache]
            )
            return context.get_dummy_value()

        return types.void(table, row), codegen
