// Entry of an execution worker thread: registers tsx's loader in this thread, then loads the TypeScript worker.
import { register } from 'tsx/esm/api'

register()
await import('./worker-main.ts')
