/**
 * The simulation's state view: a JournaledState that also lets a contract be the sender of a call, as
 * geth's simulator does (validation or not), without losing the contract's code.
 *
 * The library's runTx refuses a sender with code (EIP-3607) when it first reads the sender, then writes the
 * sender back several times from the object it read (gas debit, nonce, refund). So: while a call is armed,
 * the sender reads as code-less until the runner first writes it back, and every write-back of that
 * account that carries the empty code hash keeps the real one. A sender with real code cannot lose it
 * during a transaction (its own authorizations are skipped, SELFDESTRUCT of a pre-existing contract keeps
 * the account since EIP-6780), so no legitimate write is overridden. Delegated (EIP-7702) senders are left
 * alone: the library accepts them.
 *
 * The state root is asked for once, when the block is built; without real roots it is 32 zero bytes.
 *
 * (JournaledState.allowContractSender ends its masking at the first write-back, so the second write-back
 * of runTx erases the sender's code; this view does not rely on it.)
 */

import { Account, KECCAK256_NULL, type Address } from '@ethereumjs/util'
import { equalBytes } from '../primitives/hex.ts'
import { JournaledState, type StateRootFn } from '../state/journaled-state.ts'
import type { StateReader } from '../state/state-reader.ts'

const DELEGATION_PREFIX = [0xef, 0x01, 0x00]

export class SimState extends JournaledState {
  private sender: { key: string; codeHash: Uint8Array; written: boolean } | undefined

  /** Without `stateRoot`, the state root is 32 zero bytes (and no diff is taken for it). */
  constructor(
    base: StateReader,
    private readonly stateRoot?: StateRootFn,
  ) {
    super(base, stateRoot)
  }

  override async getStateRoot(): Promise<Uint8Array> {
    return this.stateRoot === undefined ? new Uint8Array(32) : super.getStateRoot()
  }

  /** Arms (or, with undefined, disarms) contract-sender handling for the next call. */
  armSender(address: Address | undefined): void {
    this.sender = undefined
    if (address === undefined) return
    const key = address.toString()
    const account = this.readAccount(key, address.bytes)
    if (account === undefined || equalBytes(account.codeHash, KECCAK256_NULL)) return
    const code = this.codeByHash(account.codeHash)
    if (DELEGATION_PREFIX.every((b, i) => code[i] === b)) return
    this.sender = { key, codeHash: account.codeHash, written: false }
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const account = await super.getAccount(address)
    const s = this.sender
    if (account !== undefined && s !== undefined && !s.written && s.key === address.toString()) account.codeHash = KECCAK256_NULL
    return account
  }

  override async putAccount(address: Address, account?: Account): Promise<void> {
    const s = this.sender
    if (account !== undefined && s !== undefined && s.key === address.toString()) {
      s.written = true
      if (equalBytes(account.codeHash, KECCAK256_NULL)) {
        account = new Account(account.nonce, account.balance, account.storageRoot, s.codeHash)
      }
    }
    return super.putAccount(address, account)
  }
}
