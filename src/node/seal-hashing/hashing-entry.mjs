// Entry of the seal-hashing worker thread: registers tsx's loader in this thread, then loads the TypeScript worker.
import { register } from 'tsx/esm/api'

register()
await import('./hashing-main.ts')
