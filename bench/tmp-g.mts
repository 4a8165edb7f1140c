import { launchNatsCluster } from '../test/support/nats-cluster.ts'
import { spawn } from 'node:child_process'
const cluster = await launchNatsCluster()
const child = spawn(process.execPath, ['dist/flashnode.mjs', 'start', '--datadir', '/tmp/tmpg-dd', '--port', '38555', '--host', '127.0.0.1', '--sequencer-group', 'bench', '--stream', cluster.urls.join(','), '--node-id', 'b0'], { stdio: 'inherit', env: { ...process.env, GATE_TIMES: '/tmp/gt2.txt' } })
await new Promise((r) => setTimeout(r, 8000))
child.kill('SIGTERM')
await new Promise((r) => setTimeout(r, 1000))
await cluster.dispose()
