// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IProgramFactory
/// @notice Creates a whole program (Points, Factory, CollateralVault, PSPVault and an optional
/// Oracle, each a ProgramProxy over this release's shared implementations) in ONE transaction:
/// every proxy at a CREATE2 address derived from the brand, every initializer called with the
/// cross references and final role holders. The factory itself never holds a role in a program.
interface IProgramFactory {
    /// @notice The implementations every program of this release points to.
    struct Implementations {
        address points;
        address factory;
        address collateralVault;
        address pspVault;
        address oracle;
    }

    /// @notice The proxies of one program. `oracle` is zero when the program has none.
    struct Program {
        address points;
        address factory;
        address collateralVault;
        address pspVault;
        address oracle;
    }

    /// @notice Everything a program is born with.
    /// @param brand Lowercase alphanumeric, 1 to 32 characters; once per chain.
    /// @param admin The brand's wallet: DEFAULT_ADMIN_ROLE everywhere, MANAGER_ROLE, PAUSER_ROLE
    /// and every PSPVault role.
    /// @param executor The service's executor: EXECUTOR_ROLE on the Factory and nothing else;
    /// zero when the program's redemption desk is off (a MANAGER_ROLE holder may grant it later).
    /// @param oracleFeed Zero for no Oracle (every asset priced 1.0).
    /// @param feeReceiver Zero means `admin`. Put on the transfer allowlist when a fee is set.
    struct DeployParams {
        string brand;
        string tokenName;
        string tokenSymbol;
        address admin;
        address executor;
        uint48 adminDelay;
        address collateralAsset;
        address oracleFeed;
        uint32 oracleHeartbeat;
        uint128 lowerPeg;
        uint128 upperPeg;
        address feeReceiver;
        uint16 mintFeeBps;
        uint16 redeemFeeBps;
        uint64 redeemDelay;
    }

    /// @notice Thrown when a brand is empty, longer than 32 characters or not lowercase alphanumeric.
    error InvalidBrand(string brand);
    /// @notice Thrown when a brand already has a program on this chain.
    error BrandTaken(string brand);
    /// @notice Thrown when a required address is zero.
    error ZeroAddress();
    /// @notice Thrown when an implementation or the collateral asset has no code.
    error NotAContract(address account);

    /// @notice Emitted once per program with every address.
    event ProgramDeployed(
        bytes32 indexed brandHash,
        string brand,
        address indexed admin,
        address indexed executor,
        Program program
    );

    /// @notice Deploys and initializes a program. Requires OPERATOR_ROLE.
    function deployProgram(DeployParams calldata params) external returns (Program memory program);

    /// @notice The addresses `brand`'s program has (or will have) on this chain; `oracle` is
    /// the address the Oracle gets if the program has one. Reverts {InvalidBrand} for a brand
    /// that could never be deployed.
    function predictAddresses(string calldata brand) external view returns (Program memory);

    /// @notice The deployed program of `brand` (all zero when none).
    function programOf(string calldata brand) external view returns (Program memory);

    /// @notice The implementations of this release.
    function implementations() external view returns (Implementations memory);

    /// @notice The release's version label.
    function version() external view returns (string memory);

    /// @notice Number of programs deployed by this factory.
    function programCount() external view returns (uint256);
}
