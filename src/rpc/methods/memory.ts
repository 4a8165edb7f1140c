/**
 * flashnode_memory: the node's memory from the inside (node/thread-memory.ts): the process's resident figures,
 * each thread's V8 heap, external and array-buffer memory, and every bounded structure's size against its
 * bound. For operators and the soak benchmark; a development method (the `flashnode_` namespace is never served
 * on a public endpoint). Its one optional argument, `true`, runs a full garbage collection on every thread
 * first when the node was started with `node --expose-gc` (otherwise it is ignored and `collected` says so).
 */

import type { MemoryApi } from '../../node/ports.ts'
import type { MethodHandler } from '../registry.ts'
import { parseArgs, parseBool, withDefault } from '../params/args.ts'

export function memoryMethods(memory: MemoryApi): Record<string, MethodHandler> {
  return {
    flashnode_memory: async (params) => {
      const [collect] = parseArgs(params, [withDefault(parseBool, false)])
      return memory.report(collect)
    },
  }
}
