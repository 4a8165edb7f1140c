/**
 * The OP Stack predeploys' addresses, as the specs fix them: what the executor (the fee vaults it credits,
 * the L1Block it reads) and the dev genesis (predeploys.ts, the code it installs) agree on. Constants only:
 * no code, no storage.
 */

export const L1_BLOCK_ADDRESS = '0x4200000000000000000000000000000000000015'
export const GAS_PRICE_ORACLE_ADDRESS = '0x420000000000000000000000000000000000000f'
export const SEQUENCER_FEE_VAULT_ADDRESS = '0x4200000000000000000000000000000000000011'
export const BASE_FEE_VAULT_ADDRESS = '0x4200000000000000000000000000000000000019'
export const L1_FEE_VAULT_ADDRESS = '0x420000000000000000000000000000000000001a'
export const OPERATOR_FEE_VAULT_ADDRESS = '0x420000000000000000000000000000000000001b'
/** The account that sends the L1-attributes deposit and alone may set L1Block's values and the oracle's flags. */
export const L1_INFO_DEPOSITOR_ADDRESS = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'
/** The L2ToL1MessagePasser: withdrawals to L1 are its storage (from Isthmus a header's withdrawalsRoot is its storage root). */
export const L2_TO_L1_MESSAGE_PASSER_ADDRESS = '0x4200000000000000000000000000000000000016'
/** The create2Deployer preinstall (specs/protocol/preinstalls.md), which Canyon's activation block installs (op-geth). */
export const CREATE2_DEPLOYER_ADDRESS = '0x13b0D85CcB8bf860b6b79AF3029fCA081AE9beF2'
