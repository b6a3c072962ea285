// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IPSPVault} from "../../contracts/interfaces/IPSPVault.sol";
import {ProgramSetup} from "./utils/ProgramSetup.sol";
import {vm} from "./utils/Cheats.sol";
import {HandlerBase} from "./handlers/HandlerBase.sol";
import {FactoryHandler} from "./handlers/FactoryHandler.sol";
import {PspHandler} from "./handlers/PspHandler.sol";
import {PspGhost} from "./handlers/PspGhost.sol";

/// @dev The program invariants, checked by the fuzzer after every step of every random
/// sequence of handler operations. Runs, depth and seed come from hardhat.config.ts
/// (INVARIANT_RUNS, INVARIANT_DEPTH, INVARIANT_SEED).
abstract contract ProgramInvariants is ProgramSetup {
    /// @dev Where each run appends its per-operation outcome counts (printed after the run).
    string internal constant STATS_DIR = "cache/invariant-stats/";
    /// @dev A run where few steps succeed proves little (the totals are printed after the run).
    uint256 internal constant MIN_SUCCESS_PERCENT = 30;

    FactoryHandler internal factoryHandler;
    PspHandler internal pspHandler;

    function _suiteName() internal pure virtual returns (string memory);

    function _setUpProgram(bool withOracle, uint16 mintFeeBps, uint16 redeemFeeBps) internal {
        _deploy(withOracle, mintFeeBps, redeemFeeBps);
        factoryHandler = new FactoryHandler(prog, acc);
        pspHandler = new PspHandler(prog.psp, prog.points, acc);
    }

    /// @notice The contracts whose functions the fuzzer calls: the handlers only.
    function targetContracts() public view returns (address[] memory targets) {
        targets = new address[](2);
        (targets[0], targets[1]) = (address(factoryHandler), address(pspHandler));
    }

    /// @notice Every invariant below, after every step of every sequence. One invariant function
    /// per suite: each such function gets its own campaign of runs, and four would replay the
    /// same sequences four times.
    function invariant_programInvariants_holdAfterEveryStep() public view {
        _requireNoViolation();
        _pspVaultHoldsExactlyBudgetsPlusOutstandingPlusUnallocated();
        _delegatedMinterIssuedOnlyGrowsWithinLimit();
        _spSupplyIsBackedByVaultCollateralAtPar();
        _pspLedgerMatchesGhostModel();
        _campaignBudgetIsWhatItsFunderAndTheProgramPaid();
    }

    /// @dev Invariant 1: the vault's SP is exactly the campaigns' available budget plus
    /// outstanding pSP plus unallocated SP; each campaign's outstanding pSP is the sum of its
    /// holders' balances.
    function _pspVaultHoldsExactlyBudgetsPlusOutstandingPlusUnallocated() internal view {
        IPSPVault psp = prog.psp;
        uint256 accounted = psp.unallocated();
        for (uint256 c = 0; c < pspHandler.CAMPAIGNS(); ++c) {
            if (pspHandler.ghostCampaign(c).status == 0) continue;
            bytes32 id = pspHandler.campaignIds(c);
            IPSPVault.Campaign memory campaign = psp.getCampaign(id);
            accounted += campaign.available + campaign.outstanding;
            uint256 held;
            for (uint256 u = 0; u < acc.users.length; ++u) held += psp.balanceOf(id, acc.users[u]);
            require(held == campaign.outstanding, "inv1: outstanding != sum of pSP balances");
        }
        require(
            accounted == prog.points.balanceOf(address(psp)),
            "inv1: vault SP != available + outstanding + unallocated"
        );
    }

    /// @dev Invariant 2: a delegated minter's issued only grows, by mints (the handler also
    /// checks issued <= limit right after every successful delegated mint, and that every
    /// over-limit mint reverted); limit and active are what setMinter last set.
    function _delegatedMinterIssuedOnlyGrowsWithinLimit() internal view {
        for (uint256 c = 0; c < pspHandler.CAMPAIGNS(); ++c) {
            for (uint256 m = 0; m < acc.minters.length; ++m) {
                (uint256 limit, uint256 issued, bool active) = prog.psp.getMinterConfig(
                    pspHandler.campaignIds(c),
                    acc.minters[m]
                );
                PspGhost.GhostMinter memory g = pspHandler.ghostMinter(c, acc.minters[m]);
                require(issued == g.issued, "inv2: issued differs from the sum of its mints");
                require(limit == g.limit && active == g.active, "inv2: minter config differs from setMinter");
            }
        }
    }

    /// @dev Invariant 3: SP supply is backed at price 1.0 by the collateral in the vaults,
    /// and the Factory's SP is exactly the pending redemptions' escrow.
    function _spSupplyIsBackedByVaultCollateralAtPar() internal view {
        uint256 backing;
        for (uint256 i = 0; i < prog.assets.length; ++i) {
            uint256 held = prog.assets[i].balanceOf(address(prog.vaults[i]));
            backing += held * 10 ** (18 - prog.assets[i].decimals());
        }
        require(prog.points.totalSupply() <= backing, "inv3: SP supply above collateral at par");
        require(
            prog.points.balanceOf(address(prog.factory)) == factoryHandler.ghostEscrow(),
            "inv3: Factory SP != pending escrow"
        );
    }

    /// @dev Invariant 4: every pSP balance, campaign and the vault's SP match the ghost
    /// model exactly; per campaign, minted - settled - expired == outstanding.
    function _pspLedgerMatchesGhostModel() internal view {
        IPSPVault psp = prog.psp;
        for (uint256 c = 0; c < pspHandler.CAMPAIGNS(); ++c) {
            PspGhost.GhostCampaign memory g = pspHandler.ghostCampaign(c);
            if (g.status == 0) continue;
            bytes32 id = pspHandler.campaignIds(c);
            IPSPVault.Campaign memory campaign = psp.getCampaign(id);
            require(uint8(campaign.status) == g.status && campaign.creator == g.creator, "inv4: campaign status");
            require(campaign.budget == g.budget, "inv4: budget");
            require(campaign.available == g.available, "inv4: available");
            require(campaign.outstanding == g.outstanding, "inv4: outstanding");
            require(g.minted - g.settled - g.expired == g.outstanding, "inv4: minted - settled - expired");
            for (uint256 u = 0; u < acc.users.length; ++u) {
                require(psp.balanceOf(id, acc.users[u]) == pspHandler.ghostBalance(c, acc.users[u]), "inv4: balance");
            }
        }
        require(prog.points.balanceOf(address(psp)) == pspHandler.ghostVaultSp(), "inv4: vault SP");
        require(psp.totalAllocated() == pspHandler.ghostAllocated(), "inv4: allocated");
    }

    /// @dev Invariant 5 (docs/rules.md#campaigns): a campaign's budget is exactly what its funder
    /// paid from its own SP plus program money, as the vault records it; a funder never got back
    /// more than it paid (the handler also checks, at every close, that only the funder was paid).
    function _campaignBudgetIsWhatItsFunderAndTheProgramPaid() internal view {
        for (uint256 c = 0; c < pspHandler.CAMPAIGNS(); ++c) {
            PspGhost.GhostCampaign memory g = pspHandler.ghostCampaign(c);
            if (g.status == 0) continue;
            (address funder, uint256 programFunded) = prog.psp.fundingOf(pspHandler.campaignIds(c));
            require(funder == g.funder && programFunded == g.programFunded, "inv5: funding record");
            require(g.budget == g.funderPaid + g.programFunded, "inv5: budget != funder's SP + program money");
            require(g.refunded <= g.funderPaid, "inv5: funder got back more than it paid");
        }
    }

    /// @notice After each run: append the outcome counts, and refuse a run where most steps
    /// reverted (it would prove little).
    function afterInvariant() public {
        (uint256 fOk, uint256 fRejected) = factoryHandler.totals();
        (uint256 pOk, uint256 pRejected) = pspHandler.totals();
        _writeStats(factoryHandler);
        _writeStats(pspHandler);
        uint256 steps = fOk + fRejected + pOk + pRejected;
        require((fOk + pOk) * 100 >= steps * MIN_SUCCESS_PERCENT, "fewer than 30% of the steps succeeded");
    }

    function _writeStats(HandlerBase handler) private {
        for (uint256 i = 0; i < handler.opCount(); ++i) {
            string memory line = string.concat(_suiteName(), ",", handler.opName(i), ",");
            line = string.concat(line, vm.toString(handler.okCount(i)), ",", vm.toString(handler.rejectedCount(i)));
            vm.writeLine(string.concat(STATS_DIR, _suiteName(), ".csv"), line);
        }
    }

    function _requireNoViolation() private view {
        string memory f = factoryHandler.violation();
        require(bytes(f).length == 0, f);
        string memory s = pspHandler.violation();
        require(bytes(s).length == 0, s);
    }
}

/// @dev A program without an Oracle (every asset at 1.0), with mint and redeem fees.
contract ProgramInvariantsTest is ProgramInvariants {
    function setUp() public {
        _setUpProgram(false, 50, 30);
    }

    function _suiteName() internal pure override returns (string memory) {
        return "no-oracle";
    }
}

/// @dev An Oracle-priced program: prices move inside and outside the peg band and go stale,
/// so basket mode flips on its own as well as when forced; fees as above.
contract OraclePricedProgramInvariantsTest is ProgramInvariants {
    function setUp() public {
        _setUpProgram(true, 50, 30);
    }

    function _suiteName() internal pure override returns (string memory) {
        return "oracle";
    }
}
