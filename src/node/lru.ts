/** The LRU map lives in primitives/ (state/ uses it too); node/ modules import it from here. */
export { Lru } from '../primitives/lru.ts'
