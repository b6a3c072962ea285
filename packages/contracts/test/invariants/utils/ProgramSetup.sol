// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IFactory} from "../../../contracts/interfaces/IFactory.sol";
import {IOracle} from "../../../contracts/interfaces/IOracle.sol";
import {Points} from "../../../contracts/points/Points.sol";
import {Factory} from "../../../contracts/factory/Factory.sol";
import {CollateralVault} from "../../../contracts/vault/CollateralVault.sol";
import {PSPVault} from "../../../contracts/psp/PSPVault.sol";
import {Oracle} from "../../../contracts/oracle/Oracle.sol";
import {ProgramProxy} from "../../../contracts/proxy/ProgramProxy.sol";
import {MockStablecoin} from "../../../contracts/mocks/MockStablecoin.sol";
import {MockAggregatorV3} from "../../../contracts/mocks/MockAggregatorV3.sol";
import {vm, actor} from "./Cheats.sol";

/// @dev The accounts of the scenario. `admin` is the brand wallet holding every admin role.
struct Accounts {
    address admin;
    address executor;
    address feeReceiver;
    address campaignAdmin; // CAMPAIGN_ADMIN_ROLE only
    address issuer; // ISSUING_ADMIN_ROLE only
    address settler; // SETTLEMENT_ADMIN_ROLE only
    address mover; // TRANSFER_ADMIN_ROLE only
    address outsider; // no role, on no allowlist
    address[2] minters; // delegated minters: no role at all
    address[4] users; // SP holders (all on the Points allowlist) and pSP holders
}

/// @dev A whole program deployed behind ProgramProxy as docs/deployment.md#roles-at-birth describes, with a
/// 6-decimal and an 18-decimal collateral both registered, and optionally an Oracle.
struct Program {
    Points points;
    Factory factory;
    PSPVault psp;
    Oracle oracle;
    MockStablecoin[2] assets;
    CollateralVault[2] vaults;
    MockAggregatorV3[2] feeds;
}

abstract contract ProgramSetup {
    uint256 internal constant ADMIN_SP = 1e12 * 1e18;
    uint256 internal constant CAMPAIGN_ADMIN_SP = 1e9 * 1e18;
    uint256 internal constant USER_SP = 1e4 * 1e18;

    Accounts internal acc;
    Program internal prog;

    function _accounts() internal returns (Accounts memory a) {
        a.admin = actor("admin");
        a.executor = actor("executor");
        a.feeReceiver = actor("feeReceiver");
        a.campaignAdmin = actor("campaignAdmin");
        a.issuer = actor("issuer");
        a.settler = actor("settler");
        a.mover = actor("mover");
        a.outsider = actor("outsider");
        a.minters = [actor("minter1"), actor("minter2")];
        a.users = [actor("alice"), actor("bob"), actor("carol"), actor("dave")];
    }

    function _deploy(bool withOracle, uint16 mintFeeBps, uint16 redeemFeeBps) internal {
        Accounts memory a = _accounts();
        acc = a;
        Program storage p = prog;
        p.assets = [new MockStablecoin("USD Coin", "USDC", 6), new MockStablecoin("Dai", "DAI", 18)];
        p.points = Points(address(new ProgramProxy(address(new Points()))));
        p.factory = Factory(address(new ProgramProxy(address(new Factory()))));
        p.psp = PSPVault(address(new ProgramProxy(address(new PSPVault()))));
        // The first vault as ProgramFactory makes it; the second as the Factory makes it.
        address vaultImplementation = address(new CollateralVault());
        p.vaults[0] = CollateralVault(address(new ProgramProxy(vaultImplementation)));
        p.vaults[0].initialize(p.assets[0], address(p.factory), a.admin, 0, "Vault", "V");
        if (withOracle) {
            IOracle.FeedInit[] memory feeds = new IOracle.FeedInit[](2);
            for (uint256 i = 0; i < 2; ++i) {
                p.feeds[i] = new MockAggregatorV3(8, 1e8);
                feeds[i] = IOracle.FeedInit(address(p.assets[i]), address(p.feeds[i]), 1 days, 0.98e18, 1.02e18);
            }
            p.oracle = Oracle(address(new ProgramProxy(address(new Oracle()))));
            p.oracle.initialize(a.admin, 0, feeds);
        }
        // The fee receiver must be able to receive SP while fees are on.
        address[] memory systemAccounts = new address[](3);
        (systemAccounts[0], systemAccounts[1], systemAccounts[2]) = (address(p.factory), address(p.psp), a.feeReceiver);
        p.points.initialize("Acme Points", "ACME", a.admin, 0, address(p.factory), systemAccounts);
        p.factory.initialize(
            IFactory.InitParams({
                admin: a.admin,
                adminDelay: 0,
                points: address(p.points),
                executor: a.executor,
                oracle: address(p.oracle),
                asset: address(p.assets[0]),
                vault: address(p.vaults[0]),
                feeReceiver: a.feeReceiver,
                mintFeeBps: mintFeeBps,
                redeemFeeBps: redeemFeeBps,
                redeemDelay: 1 days,
                vaultImplementation: vaultImplementation
            })
        );
        p.psp.initialize(a.admin, 0, address(p.points));
        _configure(a, p);
    }

    function _configure(Accounts memory a, Program storage p) private {
        vm.prank(a.admin);
        p.vaults[1] = CollateralVault(p.factory.createVault(address(p.assets[1]), "Vault", "V"));
        vm.prank(a.admin);
        p.factory.registerAsset(address(p.assets[1]), address(p.vaults[1]));
        _grant(a.campaignAdmin, p.psp.CAMPAIGN_ADMIN_ROLE());
        _grant(a.issuer, p.psp.ISSUING_ADMIN_ROLE());
        _grant(a.settler, p.psp.SETTLEMENT_ADMIN_ROLE());
        _grant(a.mover, p.psp.TRANSFER_ADMIN_ROLE());
        _listEverywhere(a.admin);
        _listEverywhere(a.campaignAdmin);
        for (uint256 i = 0; i < a.users.length; ++i) {
            _listEverywhere(a.users[i]);
            _mintSp(a.users[i], USER_SP);
        }
        // The campaign funders hold SP minted against collateral, like any brand would.
        _mintSp(a.admin, ADMIN_SP + CAMPAIGN_ADMIN_SP);
        vm.prank(a.admin);
        p.points.transfer(a.campaignAdmin, CAMPAIGN_ADMIN_SP);
        vm.prank(a.admin);
        p.points.approve(address(p.psp), type(uint256).max);
        vm.prank(a.campaignAdmin);
        p.points.approve(address(p.psp), type(uint256).max);
    }

    function _grant(address account, bytes32 role) private {
        vm.prank(acc.admin);
        prog.psp.grantRole(role, account);
    }

    /// @dev On the mint, redeem and transfer allowlists, with unlimited approvals to the Factory.
    function _listEverywhere(address account) private {
        Program storage p = prog;
        vm.prank(acc.admin);
        p.factory.addToMintWhitelist(account);
        vm.prank(acc.admin);
        p.factory.addToRedeemWhitelist(account);
        vm.prank(acc.admin);
        p.points.addToTransferWhitelist(account);
        vm.prank(account);
        p.points.approve(address(p.factory), type(uint256).max);
        for (uint256 i = 0; i < 2; ++i) {
            vm.prank(account);
            p.assets[i].approve(address(p.factory), type(uint256).max);
        }
    }

    /// @dev Mints at least `sp` SP to `to` against 18-decimal collateral (grossed up for the fee).
    function _mintSp(address to, uint256 sp) private {
        uint256 collateral = (sp * 10_000) / (10_000 - prog.factory.mintFeeBps()) + 1e18;
        prog.assets[1].mint(to, collateral);
        vm.prank(to);
        prog.factory.mint(address(prog.assets[1]), collateral, to);
    }
}
