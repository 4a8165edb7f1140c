/**
 * Runs a transaction call object as geth applies a message for eth_call / eth_estimateGas /
 * eth_createAccessList: nothing is signed or committed, the nonce is not checked, the sender may be a
 * contract, the EIP-7825 per-transaction gas cap does not apply, and when no fee field is given the block's
 * base fee reads as 0 (so a call never fails on fees it did not ask to pay).
 *
 * It drives the library's runTx (intrinsic gas, warm sets, refunds, the calldata floor, EIP-7702
 * authorisations) over a JournaledState, and translates the library's failures into typed errors with
 * geth's wording, in one place (vm-errors.ts).
 */

import { createBlock, type Block, type BlockHeader } from '@ethereumjs/block'
import { createTx, getCalldataFloorGas, type TypedTransaction } from '@ethereumjs/tx'
import { runTx, type VM } from '@ethereumjs/vm'
import type { VmPool } from './vm-pool.ts'
import { Address } from '@ethereumjs/util'
import type { CallRequest } from './requests.ts'
import { bytesToHex, ZERO_ADDRESS } from '../primitives/hex.ts'
import type { JournaledState } from '../state/journaled-state.ts'
import type { ChainRules } from './chain-config.ts'
import type { BlockHashSource } from './block-hashes.ts'
import { preExecutionError, type CallFailure, vmFailure } from './vm-errors.ts'
import { traceAccessList, type AccessListTracer } from './access-list-tracer.ts'

/** EIP-7825's cap: transactions above it cannot even be constructed by the library. */
const TX_GAS_CAP = 1n << 24n

export interface CallSettings {
  /** Default and maximum gas of a call. */
  readonly gasCap: bigint
}

export interface CallOutcome {
  readonly returnData: Uint8Array
  /** Gas charged (after refunds and the calldata floor), as a receipt would show. */
  readonly gasUsed: bigint
  /**
   * The most gas the execution held at once: used before refunds (intrinsic + execution), at least the
   * EIP-7623 calldata floor. geth's ExecutionResult.MaxUsedGas, which its gas estimator starts from.
   */
  readonly maxUsedGas: bigint
  /** Set when execution failed; a revert carries its data in returnData. */
  readonly failure?: CallFailure
  readonly logs: readonly [Uint8Array, Uint8Array[], Uint8Array][]
  readonly createdAddress?: Uint8Array
}

export interface CallContext {
  readonly rules: ChainRules
  /** Reusable VMs (building one per call is slow, and each adds a listener to the shared fork Common). */
  readonly vms: VmPool
  /** The header whose environment the call sees (number, timestamp, coinbase, base fee, …). */
  readonly header: BlockHeader
  /**
   * eth_call's blobBaseFee block override: what BLOBBASEFEE and the blob fee check see instead of the price
   * the header's excess blob gas gives (a header field cannot express an arbitrary price).
   */
  readonly blobBaseFee?: bigint
  readonly blockHashes: BlockHashSource
  readonly settings: CallSettings
}

const hasFee = (r: CallRequest): boolean =>
  (r.gasPrice ?? 0n) > 0n || (r.maxFeePerGas ?? 0n) > 0n || (r.maxPriorityFeePerGas ?? 0n) > 0n

/** The block a call sees, per header and base-fee rule; headers are immutable, so it is built once. */
const contextBlocks = new WeakMap<BlockHeader, { zero?: Block; real?: Block }>()

function contextBlock(ctx: CallContext, zeroBaseFee: boolean): Block {
  const h = ctx.header
  if (ctx.blobBaseFee !== undefined) {
    const block = buildContextBlock(ctx, zeroBaseFee, false)
    const price = ctx.blobBaseFee
    // The library reads the price through this method only (the opcode and runTx's blob fee check); an
    // unfrozen header, built for this call alone, lets it be replaced.
    block.header.getBlobGasPrice = () => price
    return block
  }
  let cached = contextBlocks.get(h)
  if (cached === undefined) {
    cached = {}
    contextBlocks.set(h, cached)
  }
  const hit = zeroBaseFee ? cached.zero : cached.real
  if (hit !== undefined) return hit
  const block = buildContextBlock(ctx, zeroBaseFee)
  if (zeroBaseFee) cached.zero = block
  else cached.real = block
  return block
}

function buildContextBlock(ctx: CallContext, zeroBaseFee: boolean, freeze = true): Block {
  const h = ctx.header
  const common = ctx.rules.at(h.number, h.timestamp)
  const data = h.toJSON()
  if (zeroBaseFee && h.baseFeePerGas !== undefined) data.baseFeePerGas = '0x0'
  return createBlock({ header: data }, { common, skipConsensusFormatValidation: true, freeze })
}

function buildTx(ctx: CallContext, req: CallRequest, gas: bigint, nonce: bigint): TypedTransaction {
  const common = ctx.rules.at(ctx.header.number, ctx.header.timestamp)
  const base = {
    nonce,
    gasLimit: gas > TX_GAS_CAP ? TX_GAS_CAP : gas,
    to: req.to === undefined || req.to === null ? undefined : req.to,
    value: req.value ?? 0n,
    data: req.data ?? new Uint8Array(0),
    chainId: common.chainId(),
  }
  const accessList = (req.accessList ?? []).map((e) => ({
    address: bytesToHex(e.address),
    storageKeys: e.storageKeys.map((k) => bytesToHex(k)),
  }))
  const dynamic = req.maxFeePerGas !== undefined || req.maxPriorityFeePerGas !== undefined
  const feeCap = req.maxFeePerGas ?? req.gasPrice ?? 0n
  const tipCap = req.maxPriorityFeePerGas ?? req.gasPrice ?? (req.maxFeePerGas !== undefined ? 0n : 0n)
  let txData: Record<string, unknown>
  if (req.authorizationList !== undefined) {
    txData = {
      ...base,
      type: 4,
      maxFeePerGas: feeCap,
      maxPriorityFeePerGas: tipCap,
      accessList,
      authorizationList: req.authorizationList.map((a) => ({
        chainId: `0x${a.chainId.toString(16)}`,
        address: bytesToHex(a.address),
        nonce: `0x${a.nonce.toString(16)}`,
        yParity: `0x${a.yParity.toString(16)}`,
        r: `0x${a.r.toString(16)}`,
        s: `0x${a.s.toString(16)}`,
      })),
    }
  } else if (req.blobVersionedHashes !== undefined && req.blobVersionedHashes.length > 0) {
    txData = {
      ...base,
      type: 3,
      maxFeePerGas: feeCap,
      maxPriorityFeePerGas: tipCap,
      maxFeePerBlobGas: req.maxFeePerBlobGas ?? 0n,
      blobVersionedHashes: req.blobVersionedHashes.map((h) => bytesToHex(h)),
      accessList,
    }
  } else if (dynamic) {
    txData = { ...base, type: 2, maxFeePerGas: feeCap, maxPriorityFeePerGas: tipCap, accessList }
  } else if (req.accessList !== undefined) {
    txData = { ...base, type: 1, gasPrice: req.gasPrice ?? 0n, accessList }
  } else {
    txData = { ...base, type: 0, gasPrice: req.gasPrice ?? 0n }
  }
  const tx = createTx(txData as never, { common, freeze: false }) as TypedTransaction
  const from = new Address(req.from ?? ZERO_ADDRESS)
  // The library reads these two through the instance: the call is unsigned and may exceed the 7825 cap.
  Object.assign(tx, { gasLimit: gas, getSenderAddress: () => from })
  return tx
}

export async function executeCall(
  ctx: CallContext,
  state: JournaledState,
  req: CallRequest,
  opts: { gas?: bigint; tracer?: AccessListTracer } = {},
): Promise<CallOutcome> {
  const requested = opts.gas ?? req.gas ?? ctx.settings.gasCap
  const gas = requested > ctx.settings.gasCap ? ctx.settings.gasCap : requested
  const zeroBaseFee = !hasFee(req)
  const from = new Address(req.from ?? ZERO_ADDRESS)
  const nonce = req.nonce ?? (await state.getAccount(from))?.nonce ?? 0n
  let tx: TypedTransaction
  try {
    tx = buildTx(ctx, req, gas, nonce)
  } catch (e) {
    throw preExecutionError(e, from)
  }
  const block = contextBlock(ctx, zeroBaseFee)
  const common = ctx.rules.at(ctx.header.number, ctx.header.timestamp)
  const runOnce = (vm: VM) =>
    runTx(vm, { tx, block, skipNonce: true, skipBlockGasLimitValidation: true, skipHardForkValidation: true })
  const tracer = opts.tracer
  const run = tracer === undefined ? runOnce : (vm: VM) => traceAccessList(vm.evm, tracer, () => runOnce(vm))
  state.allowContractSender(from)
  let result
  try {
    result = await ctx.vms.with(common, ctx.blockHashes, state, run)
  } catch (e) {
    throw preExecutionError(e, from)
  } finally {
    state.allowContractSender(undefined)
  }
  const exec = result.execResult
  const failure = exec.exceptionError === undefined ? undefined : vmFailure(exec.exceptionError.error, exec.returnValue)
  const beforeRefunds = exec.executionGasUsed + tx.getIntrinsicGas()
  const floor = getCalldataFloorGas(tx, from)
  return {
    returnData: exec.returnValue,
    gasUsed: result.totalGasSpent,
    maxUsedGas: beforeRefunds > floor ? beforeRefunds : floor,
    ...(failure !== undefined ? { failure } : {}),
    logs: (exec.logs ?? []) as [Uint8Array, Uint8Array[], Uint8Array][],
    ...(result.createdAddress !== undefined ? { createdAddress: result.createdAddress.bytes } : {}),
  }
}
