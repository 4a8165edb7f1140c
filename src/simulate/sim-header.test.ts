import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createBlockHeader } from '@ethereumjs/block'
import { ChainRules } from '../execution/chain-config.ts'
import { headerView } from '../execution/views.ts'
import { bytesToHex } from '../primitives/hex.ts'
import { RPC_COMPAT_DIR } from '../../test/support/shared.ts'
import { Rng } from '../../test/support/rng.ts'
import { finishHeader } from './sim-header.ts'

const rules = new ChainRules(JSON.parse(readFileSync(`${RPC_COMPAT_DIR}genesis.json`, 'utf8')))

test('a finished header encodes, hashes and reads as the library header of the same fields, on every fork up to Osaka', () => {
  const rng = new Rng(31)
  const common = rules.mutableCopy()
  const forks: string[] = []
  for (const hf of common.hardforks()) {
    common.setHardfork(hf.name)
    if (hf.name === 'amsterdam') continue
    forks.push(hf.name)
    for (let i = 0; i < 5; i++) {
      const data = {
        number: BigInt(rng.int(1_000_000)),
        timestamp: BigInt(rng.int(2_000_000_000)),
        coinbase: rng.bytes(20),
        gasLimit: 30_000_000n,
        difficulty: common.isActivatedEIP(3675) ? 0n : BigInt(rng.int(1_000_000)),
        mixHash: rng.bytes(32),
        parentHash: rng.bytes(32),
        extraData: rng.bytes(rng.int(3)),
        nonce: new Uint8Array(8),
        ...(common.isActivatedEIP(1559) ? { baseFeePerGas: BigInt(rng.int(1e9)) } : {}),
        ...(common.isActivatedEIP(4844) ? { excessBlobGas: BigInt(rng.int(1e7)) } : {}),
        ...(common.isActivatedEIP(4788) && rng.chance(0.5) ? { parentBeaconBlockRoot: rng.bytes(32) } : {}),
      }
      const parts = {
        stateRoot: rng.bytes(32),
        transactionsTrie: rng.bytes(32),
        receiptTrie: rng.bytes(32),
        logsBloom: rng.bytes(256),
        gasUsed: BigInt(rng.int(30_000_000)),
        blobGasUsed: common.isActivatedEIP(4844) ? BigInt(131_072 * rng.int(6)) : 0n,
        withdrawalsRoot: common.isActivatedEIP(4895) && rng.chance(0.5) ? rng.bytes(32) : undefined,
        requestsHash: common.isActivatedEIP(7685) && rng.chance(0.5) ? rng.bytes(32) : undefined,
      }
      const library = createBlockHeader(
        {
          ...data,
          stateRoot: parts.stateRoot,
          transactionsTrie: parts.transactionsTrie,
          receiptTrie: parts.receiptTrie,
          logsBloom: parts.logsBloom,
          gasUsed: parts.gasUsed,
          ...(common.isActivatedEIP(4844) ? { blobGasUsed: parts.blobGasUsed } : {}),
          ...(parts.withdrawalsRoot !== undefined ? { withdrawalsRoot: parts.withdrawalsRoot } : {}),
          ...(parts.requestsHash !== undefined ? { requestsHash: parts.requestsHash } : {}),
        },
        { common, skipConsensusFormatValidation: true },
      )
      const ours = finishHeader(data, parts, common)
      assert.equal(bytesToHex(ours.rlp), bytesToHex(library.serialize()), `${hf.name}: the encoding`)
      assert.equal(bytesToHex(ours.hash), bytesToHex(library.hash()), `${hf.name}: the hash`)
      assert.deepEqual({ hash: ours.hash, ...ours.fields }, headerView(library), `${hf.name}: the view`)
      assert.equal(bytesToHex(ours.libraryHeader().hash()), bytesToHex(library.hash()), `${hf.name}: the parent header for the next block`)
    }
  }
  assert.ok(forks.includes('osaka') && forks.includes('chainstart'), `forks: ${forks.join(', ')}`)
})
